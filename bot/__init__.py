"""Commerce for Discord: ``create_bot`` builds the bot (see ``bot.process.app``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .process.app import CommerceBot


def create_bot(*args: Any, **kwargs: Any) -> CommerceBot:
    """Build the configured ``commands.Bot``; see ``bot.process.app.create_bot``."""
    from .process.app import create_bot as _create

    return _create(*args, **kwargs)


__all__ = ["create_bot"]

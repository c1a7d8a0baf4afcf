"""Commerce for Discord: ``create_bot`` builds the bot (see ``bot.app``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import CommerceBot


def create_bot(*args: Any, **kwargs: Any) -> CommerceBot:
    """Build the configured ``commands.Bot``; see ``bot.app.create_bot``."""
    from .app import create_bot as _create

    return _create(*args, **kwargs)


__all__ = ["create_bot"]

"""Guild-wide settings and queries: settings, the ledger's pages (by preset and
period) and a member's figures, and the ledger reset.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from ..engine import PRESETS
from ..i18n import _
from ..storage import GuildSettings, MemberStats
from .core import ServiceBase
from .errors import STORAGE_ERRORS, UserError
from .refusals import refusal
from .seasons import pick_season

log = logging.getLogger(__name__)

#: the leaderboard's periods and how they read: UTC calendar weeks (from Monday
#: 00:00 UTC) and months (from the 1st, 00:00 UTC), or every row
PERIODS = {"week": "this week", "month": "this month", "all": "all time"}


def period_start(period: str, now: datetime) -> datetime | None:
    """When ``period`` began at the aware moment ``now``, in UTC: ``week`` the
    Monday 00:00 UTC of ``now``'s calendar week, ``month`` the 1st 00:00 UTC of
    its month; ``None`` for ``all`` (no start).

    Raises:
        ValueError: ``period`` is not a key of ``PERIODS``.
    """
    day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return day - timedelta(days=day.weekday())
    if period == "month":
        return day.replace(day=1)
    if period == "all":
        return None
    raise ValueError(f"unknown period {period!r}")


class Queries(ServiceBase):
    """Settings, ledger and records of a guild (part of ``TableService``)."""

    async def settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults when never set; cached)."""
        cached = self._settings.get(guild_id)
        if cached is None:
            cached = self._settings[guild_id] = await self.storage.get_settings(guild_id)
        return cached

    def known_settings(self, guild_id: int) -> GuildSettings | None:
        """The guild's settings if ``settings`` has read them already, without
        waiting; ``None`` when not yet."""
        return self._settings.get(guild_id)

    async def update_settings(self, guild_id: int, member_id: int, **fields: Any) -> GuildSettings:
        """Change guild settings and record who did it in the audit table (one
        transaction).

        Raises:
            UserError: a bad value. StorageFailure: nothing changed.
        """
        try:
            async with self._unit(None):
                settings = await self.storage.update_settings(guild_id, **fields)
                await self.storage.audit(guild_id, member_id, "settings",
                                         ", ".join(f"{k}={v}" for k, v in sorted(fields.items())))
        except ValueError as exc:
            text = refusal(exc)
            raise UserError(text[:1].upper() + text[1:] + ".") from None
        self._settings[guild_id] = settings
        return settings

    async def reset_ledger(self, guild_id: int, member_id: int) -> int:
        """Zero every balance in the guild, AI seats' too (offsetting entries;
        audited); points in running games' pots stay there (see
        ``Storage.reset_ledger``). Returns the members reset.

        Raises:
            StorageFailure: nothing changed.
        """
        async with self._unit(None):
            return await self.storage.reset_ledger(guild_id, member_id)

    async def member_names(self, guild_id: int, member_ids: Iterable[int]) -> dict[int, str]:
        """Each member's name at their latest seat in the guild (``{}`` when
        storage cannot be read now: the board then shows mentions only)."""
        try:
            return await self.storage.member_names(guild_id, member_ids)
        except STORAGE_ERRORS:
            return {}

    async def leaderboard(self, guild_id: int, page: int, per_page: int = 10, *,
                          preset: str | None = None, period: str = "all",
                          now: datetime | None = None, season: int | None = None,
                          ) -> tuple[list[tuple[int, int]], int]:
        """One page (0-based) of ``(member_id, balance)`` (points) and the member
        count: only the ledger rows of ``preset``'s tables (``None``: every preset)
        written since ``period`` began (``period_start``; ``now`` defaults to the
        present moment) in ``season`` (``None``: the current one; docs/RATINGS.md
        "Seasons").

        Raises:
            UserError: an unknown preset, period or season.
        """
        if preset is not None and preset not in PRESETS:
            raise UserError(_("There is no preset by that name: pick one from the list."))
        try:
            since = period_start(period, now or datetime.now(UTC))
        except ValueError:
            raise UserError(_("Pick the period from the list: this week, this month or all "
                              "time.")) from None
        seasons = await self.storage.seasons(guild_id)
        counted = pick_season(seasons, season)
        window = None if len(seasons) == 1 else (counted.ledger_after, counted.ledger_until)
        return await self.storage.leaderboard(guild_id, page * per_page, per_page,
                                              preset=preset, since=since, window=window)

    async def tables_served(self) -> tuple[int, int]:
        """Tables ever opened and games ever started, every guild's
        (``Storage.tables_served``)."""
        return await self.storage.tables_served()

    async def presets_played(self, guild_id: int) -> list[str]:
        """The presets of the guild's started games, most played first."""
        return await self.storage.presets_played(guild_id)

    async def stats(self, guild_id: int, member_id: int) -> MemberStats:
        """``/commerce stats`` figures for a member (``Storage.member_stats``)."""
        return await self.storage.member_stats(guild_id, member_id)

"""Shard configuration: which of the bot's gateway shards, and so which guilds, this
process serves.

``SHARD_COUNT`` is the number of shards of the whole bot and ``SHARD_IDS`` the ones
this process runs: ``0-3``, ``0,2,5`` or ``0-1,4`` (a range includes both ends).
Discord sends a guild's events to shard ``(guild_id >> 22) % SHARD_COUNT`` only, so
processes given disjoint ``SHARD_IDS`` serve disjoint guilds. Both unset: one
process serves everything, as a plain ``commands.Bot``. ``SHARD_COUNT`` alone: one
process runs every shard.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


class ShardConfigError(ValueError):
    """``SHARD_COUNT`` or ``SHARD_IDS`` is wrong; the message is one line saying how."""


@dataclass(frozen=True)
class Shards:
    """The shards of one process.

    Attributes:
        count: shards of the whole bot (1 or more).
        ids: the shards this process runs, ascending; ``None`` for all of them.
    """

    count: int
    ids: tuple[int, ...] | None = None

    def shard_of(self, guild_id: int) -> int:
        """The shard Discord sends the guild's events to."""
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        """This process serves the guild."""
        return self.ids is None or self.shard_of(guild_id) in self.ids

    @property
    def served(self) -> tuple[int, ...]:
        """The shards this process runs, ascending (every one when ``ids`` is ``None``)."""
        return tuple(range(self.count)) if self.ids is None else self.ids

    def describe(self) -> str:
        """``"shards 0-1 of 4"``, ``"all 4 shards"``, for the start-up log; a process
        that is not sharded (one shard of one) is ``"every guild (not sharded)"``."""
        if self.count == 1:
            return "every guild (not sharded)"
        if self.ids is None or len(self.ids) == self.count:
            return f"all {self.count} shards"
        return f"shard{'s' if len(self.ids) > 1 else ''} {_ranges(self.ids)} of {self.count}"

    def overlap(self, other: Shards) -> tuple[int, int] | None:
        """A guild both this process and ``other`` would serve, or ``None`` when no
        guild is served by both, whatever their two counts.

        A guild ``g`` is this process's when ``(g >> 22) % count`` is one of its
        shards; so both serve ``g`` exactly when ``(g >> 22) % m``, with ``m`` the
        least common multiple of the two counts, is a residue ``r`` whose remainders
        by either count are shards of each. By the Chinese remainder theorem such an
        ``r`` exists for shards ``i`` and ``j`` exactly when ``i`` and ``j`` leave the
        same remainder by the greatest common divisor of the counts.

        Returns:
            ``(r, m)``: every guild whose ``(id >> 22) % m`` is ``r`` is served by both.
        """
        gcd = math.gcd(self.count, other.count)
        lcm = self.count // gcd * other.count
        mine: dict[int, int] = {}
        for i in self.served:
            mine.setdefault(i % gcd, i)
        for j in other.served:
            if j % gcd not in mine:
                continue
            i = mine[j % gcd]
            for k in range(other.count // gcd):  # r = i + k * count, and r % other.count == j
                r = i + k * self.count
                if r % other.count == j:
                    return r, lcm
        return None


def _ranges(ids: tuple[int, ...]) -> str:
    parts: list[str] = []
    start = prev = ids[0]
    for n in (*ids[1:], None):
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ",".join(parts)


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise ShardConfigError(f"SHARD_COUNT={text} is not a number of shards (1 or more).")
    return int(text)


def _ids(text: str, count: int) -> tuple[int, ...]:
    found: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        match = _RANGE.match(part)
        if match is None:
            raise ShardConfigError(
                f"SHARD_IDS={text}: {part!r} is not a shard number or a range like 0-3.")
        first = int(match[1])
        last = int(match[2]) if match[2] is not None else first
        if last < first:
            raise ShardConfigError(f"SHARD_IDS={text}: the range {part} is empty (write {last}-{first}).")
        for shard in range(first, last + 1):
            if shard >= count:
                raise ShardConfigError(
                    f"SHARD_IDS={text}: there is no shard {shard}; SHARD_COUNT={count} means "
                    f"shards 0 to {count - 1}.")
            if shard in found:
                raise ShardConfigError(f"SHARD_IDS={text} names shard {shard} twice.")
            found.append(shard)
    return tuple(sorted(found))


def parse_shards(count: str | None, ids: str | None) -> Shards | None:
    """The ``Shards`` that ``SHARD_COUNT`` and ``SHARD_IDS`` give; ``None`` when
    neither is set (blank counts as unset).

    Raises:
        ShardConfigError: a count that is not a whole number of 1 or more; ids without
            a count; an id that is not a number or range, is out of range, or is named
            twice.
    """
    count = (count or "").strip()
    ids = (ids or "").strip()
    if not count and not ids:
        return None
    if not count:
        raise ShardConfigError(
            f"SHARD_IDS={ids} needs SHARD_COUNT, the number of shards of the whole bot "
            "(e.g. SHARD_COUNT=4 SHARD_IDS=0-1).")
    total = _count(count)
    return Shards(total, _ids(ids, total) if ids else None)


def shards_from_env(environ: Mapping[str, str] | None = None) -> Shards | None:
    """``parse_shards`` of ``SHARD_COUNT`` and ``SHARD_IDS`` in ``environ``
    (default ``os.environ``). Raises ``ShardConfigError`` as ``parse_shards``."""
    env = os.environ if environ is None else environ
    return parse_shards(env.get("SHARD_COUNT"), env.get("SHARD_IDS"))

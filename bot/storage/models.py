"""Rows the storage layer returns (plain frozen dataclasses; no SQL outside storage)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GuildSettings:
    """Per-guild settings. ``table_mode``: ``channel`` (new text channel, default),
    ``thread`` (thread in the current channel) or ``here`` (the current channel).
    ``turn_timer`` in seconds (0 = off); ``next_deal_delay`` in seconds."""

    guild_id: int
    table_mode: str = "channel"
    turn_timer: int = 120
    default_preset: str = "foster"
    next_deal_delay: int = 30


@dataclass(frozen=True)
class TableRow:
    """A table. ``status``: ``lobby``, ``playing``, ``finished`` or ``closed``.
    ``channel_id`` is where it plays (a channel or a thread); ``number`` is the
    n of ``commerce-<n>`` within the guild; ``options`` the preset's table options."""

    id: int
    guild_id: int
    channel_id: int
    number: int
    host_id: int
    preset: str
    options: dict[str, Any]
    status: str
    lobby_message_id: int | None
    table_message_id: int | None
    next_deal_delay: int
    first_dealer: int | None
    created_at: str
    offer_key: str | None = None  # "deal:seq" of the pending offer whose ping is remembered
    offer_message_id: int | None = None
    #: ``channel`` / ``thread`` the bot created for the table, ``here`` an existing
    #: channel, ``None`` unknown (tables older than migration 0005)
    place: str | None = None
    #: the commitment (SHA-256, hex) to the seed drawn for the table's next deal, public
    #: before anyone cuts; ``None`` when no next deal is committed (the seed itself is
    #: never in a row: ``Storage.next_seed`` reads it when the deal is dealt)
    next_commitment: str | None = None


@dataclass(frozen=True)
class SeatRow:
    """A seat. ``member_id`` is ``None`` for an AI seat. ``away``: the AI plays
    for the member until they are back; ``timeouts``: turns in a row they let the
    timer run out; ``gone``: the member left the server (the AI plays on)."""

    table_id: int
    seat: int
    member_id: int | None
    name: str
    away: bool = False
    timeouts: int = 0
    gone: bool = False

    @property
    def is_ai(self) -> bool:
        """An AI seat from the start (no member)."""
        return self.member_id is None

    @property
    def ai_plays(self) -> bool:
        """The AI decides for this seat now (AI seat, away or gone)."""
        return self.member_id is None or self.away or self.gone


@dataclass(frozen=True)
class ActionRow:
    """One logged operation (``payload`` is ``operation_to_dict`` output)."""

    seq: int
    payload: dict[str, Any]
    member_id: int | None


@dataclass(frozen=True)
class DealRow:
    """A deal: ``deck`` is 52 card codes, top first (never shown before its
    showdown). ``status``: ``open``, ``finished`` or ``void``. A fair deal
    (docs/FAIRNESS.md) has its ``commitment``, ``seed`` (hex; as secret as the deck
    while the deal is open), ``cuts`` (hex strings) and ``cut_by`` (the member whose
    press cut; ``None``: the bot cut). ``finished_at``: when it closed (ISO UTC)."""

    id: int
    number: int
    dealer: int
    deck: list[str] = field(repr=False)
    status: str
    actions: list[ActionRow] = field(default_factory=list, repr=False)
    showdown_message_id: int | None = None
    commitment: str | None = None
    seed: str | None = field(default=None, repr=False)
    cuts: list[str] | None = None
    cut_by: int | None = None
    finished_at: str | None = None


@dataclass(frozen=True)
class LedgerEntry:
    """A point movement for one seat of a deal: ``amount`` is signed (points),
    ``reason`` one of ``ante``, ``fee``, ``pool``, ``penalty``, ``refund``."""

    seat: int
    member_id: int | None
    amount: int
    reason: str


@dataclass(frozen=True)
class HandResult:
    """A seat's final hand of a finished deal, for statistics."""

    seat: int
    member_id: int | None
    score: int
    label: str
    won: bool
    #: ``four``, ``tricon``, ``sequence``, ``flush``, ``pair``, ``point``, ``none``
    category: str | None = None
    #: this seat's knock ended play
    knocked: bool = False


@dataclass(frozen=True)
class MemberStats:
    """``/commerce stats`` figures for one member in one guild. ``won_by_category``:
    deals won, by the category of the winning hand (deals finished since migration
    0006); ``knocks``: per preset, deals ended by their knock and how many they won."""

    member_id: int
    balance: int
    games: int
    games_won: int
    deals: int
    deals_won: int
    best_score: int | None
    best_label: str | None
    won_by_category: dict[str, int] = field(default_factory=dict)
    knocks: list[PresetStats] = field(default_factory=list)


@dataclass(frozen=True)
class PastGame:
    """A game whose table is no longer open (``finished``, or ``closed`` before its
    end), as ``/commerce history`` lists it.

    Attributes:
        table_id: the table's id (``tables.id``; the record's ``table``).
        number: the n of ``commerce-<n>``.
        preset: the rules preset.
        status: ``finished`` (played to its end) or ``closed`` (ended early).
        players: one name per seat.
        members: one member id per seat (``None``: an AI seat).
        winners: the winning seats (empty when the game was closed early).
        started_at, finished_at: ISO 8601 UTC (``finished_at`` ``None`` if unknown).
        deals: deals dealt.
    """

    table_id: int
    number: int
    preset: str
    status: str
    players: list[str]
    members: list[int | None]
    winners: list[int]
    started_at: str
    finished_at: str | None
    deals: int


@dataclass(frozen=True)
class PresetStats:
    """A member's knocks at one preset: deals ended by their knock, and how many
    of those they won."""

    preset: str
    knocks: int
    knocks_won: int

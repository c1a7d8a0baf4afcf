"""Rows the storage layer returns (plain frozen dataclasses; no SQL outside storage)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple


@dataclass(frozen=True)
class GuildSettings:
    """Per-guild settings. ``table_mode``: ``channel`` (new text channel, default),
    ``thread`` (thread in the current channel) or ``here`` (the current channel).
    ``turn_timer`` in seconds (0 = off); ``next_deal_delay`` in seconds;
    ``keep_days``: days a finished game's channel is kept before the bot removes it
    (0 = for ever); ``max_tables``: open tables (lobbies and games) the guild may
    have at once (docs/RELIABILITY.md "A table's channel"); ``language``: the
    language of the guild's public messages and pictures (``en``, ``de``, ``fr``,
    ``es``; ``""``: the guild's own Discord locale, bot/i18n)."""

    guild_id: int
    table_mode: str = "channel"
    turn_timer: int = 120
    default_preset: str = "foster"
    next_deal_delay: int = 30
    keep_days: int = 7
    max_tables: int = 10
    language: str = ""


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
    #: the commitment (SHA-256, hex) to the game's seed, public before anything is dealt
    #: (docs/FAIRNESS.md); ``None`` for a game begun before migration 0009 (the seed itself
    #: is never in a row: ``Storage.game_seed`` reads it)
    game_commitment: str | None = None
    #: the fair-shuffle message that shows the commitment, posted once, never edited
    commitment_message_id: int | None = None
    #: members may ask the coach for a hint (docs/AI.md "Coach")
    coach: bool = True
    #: the table's end has been shown in Discord (its last showdown, the final
    #: standings, read-only channel; a lobby's channel removed); ``False`` while owed
    end_shown: bool = False
    #: when the table finished or closed (ISO 8601 UTC), ``None`` while open
    ended_at: str | None = None
    #: the bot removed the channel or thread it made for the table
    channel_removed: bool = False
    #: the member who opened the table (``host_id`` passes on when a host leaves)
    opened_by: int | None = None
    #: the final standings' message, once posted
    final_message_id: int | None = None


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
    #: an AI seat's level (``easy``, ``normal``, ``strong``; docs/AI.md); ``None`` for a
    #: member's seat (the AI plays ``easy`` for a member away or gone)
    ai_level: str | None = None

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


class DealKey(NamedTuple):
    """A deal by its table and number (``UNIQUE(table_id, number)``): how writes
    name a deal, known before its row is written."""

    table_id: int
    number: int


@dataclass(frozen=True)
class DealRow:
    """A deal: ``deck`` is 52 card codes, top first (never shown before its
    showdown). ``status``: ``open``, ``finished`` or ``void``. A fair deal
    of format 1 (docs/FAIRNESS.md "Format 1 records") has its ``commitment``, ``seed``
    (hex; as secret as the deck while the deal is open), ``cuts`` (hex strings) and
    ``cut_by`` (the member whose press cut; ``None``: the bot cut); a deal dealt from
    the game's seed has its ``attempt`` (from 1) instead. ``finished_at``: when it
    closed (ISO UTC)."""

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
    attempt: int | None = None


@dataclass(frozen=True)
class ShuffleEvent:
    """A line of a table's shuffle log (docs/FAIRNESS.md "In the bot"), in order:
    a ``cut`` a seated member typed for deal ``deal_number`` (``member_id``,
    ``text``), or an ``attempt`` at that deal, written before its deck is derived
    (``attempt`` from 1, the ``cuts`` it used: ``[{"seat", "text"}]``)."""

    id: int
    kind: str
    deal_number: int
    member_id: int | None = None
    attempt: int | None = None
    text: str | None = None
    cuts: list[dict[str, Any]] | None = None


@dataclass(frozen=True)
class HintRow:
    """A hint the coach gave (docs/AI.md "Coach"): after ``seq`` operations of its
    deal, to ``seat`` (``member_id``), advising ``advice`` because ``reason``."""

    seq: int
    seat: int
    member_id: int | None
    advice: str
    reason: str


@dataclass(frozen=True)
class OpenTable:
    """All that is stored of an open table (``Storage.open_state``): its row, the
    game's secret seed (hex, ``None`` if none), its seats by number, its deals by
    number with their actions, and its shuffle log."""

    row: TableRow
    game_seed: str | None = field(repr=False)
    seats: list[SeatRow]
    deals: list[DealRow] = field(repr=False)
    events: list[ShuffleEvent] = field(default_factory=list)


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
    """``/commerce stats`` figures for one member in one guild (finished deals only;
    balances in points).

    Attributes:
        member_id: the member.
        balance: their ledger balance in the guild (points).
        games, games_won: finished games they sat at, and won.
        deals, deals_won: finished deals at their tables, and deals their hand won.
        best_score, best_label: their best hand over every preset (highest score:
            the hand's category first, docs/RULES.md §1.4), ``None`` before any.
        won_by_category: deals won, by the category of the winning hand (deals
            finished since migration 0006), most first.
        presets: their figures at each preset they played, by preset name.
        best: the hand of ``best_score`` with the deal it came from.
    """

    member_id: int
    balance: int
    games: int
    games_won: int
    deals: int
    deals_won: int
    best_score: int | None
    best_label: str | None
    won_by_category: dict[str, int] = field(default_factory=dict)
    presets: list[PresetStats] = field(default_factory=list)
    best: BestHand | None = None

    @property
    def knocks(self) -> list[PresetStats]:
        """The presets at which one of their knocks ended a deal."""
        return [p for p in self.presets if p.knocks]


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
class BestHand:
    """A member's best final hand and the deal it came from.

    Attributes:
        preset: the rules preset of the table (whose ranking scored the hand,
            docs/RULES.md §1.4).
        score: the hand's score (higher is better within one ranking scheme).
        label: how the hand reads ("tricon of kings").
        category: ``four``, ``tricon``, ``sequence``, ``flush``, ``pair``, ``point``,
            ``none``; ``None`` for deals finished before migration 0006.
        table_id: the table's id; ``table_number`` the n of ``commerce-<n>``.
        deal_number: the deal's number at its table, from 1 (as the table showed it).
        finished_at: when the deal ended (ISO 8601 UTC), ``None`` if unknown.
    """

    preset: str
    score: int
    label: str
    category: str | None
    table_id: int
    table_number: int
    deal_number: int
    finished_at: str | None


@dataclass(frozen=True)
class PresetStats:
    """A member's figures at one preset (finished deals only).

    Attributes:
        preset: the rules preset.
        knocks: deals ended by their knock; ``knocks_won`` how many of those they won.
        deals, deals_won: deals at their tables of this preset, and won.
        trades: cards they traded with the dealer (docs/RULES.md §2.1).
        barters: cards they offered their neighbour; ``barters_accepted`` how many
            of those the neighbour took.
        won_by_category: deals won, by the category of the winning hand.
        best: their best hand at this preset, by its ranking, with its deal.
    """

    preset: str
    knocks: int
    knocks_won: int
    deals: int = 0
    deals_won: int = 0
    trades: int = 0
    barters: int = 0
    barters_accepted: int = 0
    won_by_category: dict[str, int] = field(default_factory=dict)
    best: BestHand | None = None


@dataclass(frozen=True)
class LedgerRow:
    """One stored row of a guild's ledger, as a server's export lists it.

    Attributes:
        id: the row's id (``ledger.id``: increasing, shared by every guild; a
            page boundary, never written into an export).
        table_number: the n of ``commerce-<n>`` of the row's table (``None``: a
            row of no table, e.g. a ledger reset's offset).
        deal_number: the deal's number at its table, from 1 (``None``: no deal).
        seat: the seat whose account moved (``None``: a guild-wide row).
        member_id: the member (``None``: an AI seat, or a guild-wide row).
        amount: signed points.
        reason: why (the game's payment reasons, ``share`` of a carried pot,
            ``reset`` / ``reset-pot`` of a ledger reset).
        created_at: when it was written (ISO 8601 UTC).
    """

    id: int
    table_number: int | None
    deal_number: int | None
    seat: int | None
    member_id: int | None
    amount: int
    reason: str
    created_at: str

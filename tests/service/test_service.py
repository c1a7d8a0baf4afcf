"""``TableService`` on its own: no Discord, on both storage backends (a real SQLite
file in ``tmp_path``, a fresh database of a real PostgreSQL server).

The life of a table — lobby, start, play, timers, departures, the end — and what a failed
commit leaves behind: every request is one transaction, so after a failure the table in
memory equals a fresh rebuild from storage, and play goes on.
"""

from __future__ import annotations

import asyncio
import gc
import random
import sqlite3
from collections.abc import Sequence
from typing import Any

import asyncpg
import pytest

from bot.engine import Card, Decision, Trade, card_code, parse_card
from bot.engine import easy as engine_easy
from bot.service import LiveTable, PostedMessage, StorageFailure, TableService, UserError
from bot.storage import AnyStorage, PgStorage
from tests.storage.backends import Backend

GUILD = 1
ANN, BEN, CAT, DAN = 11, 12, 13, 14
NAMES = {ANN: "Ann", BEN: "Ben", CAT: "Cat", DAN: "Dan"}
#: the worked example of docs/RULES.md §1.8, one hand per seat (seat 0 deals)
WORKED = ["3c 4c 5c", "6s 7s Kd", "Ah Kh 4d"]


def cards(text: str) -> list[Card]:
    """``"6s 7s Kd"`` -> the three cards."""
    return [parse_card(code) for code in text.split()]


def make_deck(hands: Sequence[str], dealer: int = 0, stock: str = "") -> list[Card]:
    """A clockwise deck that deals ``hands[seat]`` to each seat (docs/RULES.md §1.3:
    card ``i`` goes to seat ``(dealer + i + 1) mod n``), then ``stock`` top first,
    then every other card."""
    n = len(hands)
    per_seat = [cards(h) for h in hands]
    deck = [per_seat[(dealer + 1 + i) % n][i // n] for i in range(3 * n)] + cards(stock)
    assert len(set(deck)) == len(deck), "a card is used twice"
    return deck + [c for c in range(52) if c not in deck]


class Rigged(random.Random):
    """A seeded random source for the service that draws ``first_dealer``."""

    def __init__(self, first_dealer: int = 0) -> None:
        super().__init__(2026)
        self.first_dealer = first_dealer

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return self.first_dealer


def rigged(storage: AnyStorage, first_dealer: int = 0,
           decks: Sequence[list[int]] = ()) -> TableService:
    """A service that draws ``first_dealer`` and deals ``decks`` in order (arranged
    decks, test only), then fair decks from seeds of a seeded RNG."""
    service = TableService(storage, rng=Rigged(first_dealer))
    service.arranged_decks.extend(decks)
    service.arranged_dealer = first_dealer
    return service


def disk_error(storage: AnyStorage) -> Exception:
    """A write failure of the storage's backend (a full disk)."""
    if isinstance(storage, PgStorage):
        return asyncpg.DiskFullError("could not extend file: No space left on device")
    return sqlite3.OperationalError("disk I/O error")


async def act(service: TableService, table_id: int, member_id: int, kind: str,
              card: str | None = None, *, deal: int | None = None, seq: int | None = None):
    """The one call of ``TableService.act`` in this module (a card as its code;
    ``deal`` defaults to the current deal number): the table and the member's
    own operation, from its ``Outcome``."""
    number = service.get(table_id).deal_number if deal is None else deal
    decision = Decision(kind, None if card is None else parse_card(card))
    outcome = await service.act(table_id, member_id, number, decision, seq)
    assert outcome.own is not None and outcome.ops[0] is outcome.own
    assert outcome.decision == decision
    return outcome.live, outcome.own


async def open_table(service: TableService, members: Sequence[int], preset: str = "foster",
                     options: dict[str, Any] | None = None, ai: int = 0,
                     channel: int = 500) -> int:
    """A lobby with ``members`` seated in order (the first hosts) and ``ai`` AI seats."""
    live = await service.create(GUILD, channel, members[0], NAMES[members[0]], preset, options)
    for member in members[1:]:
        await service.join(live.id, member, NAMES[member])
    for _ in range(ai):
        await service.add_ai(live.id, members[0], "easy")  # the level these tests were built on
    await service.commitment_posted(live.id, 9000 + live.id)  # as the fair-shuffle message
    return live.id


async def worked_table(storage: AnyStorage) -> tuple[TableService, int]:
    """Ann, Ben and Cat at a started foster table dealt the worked example of
    docs/RULES.md §1.8: Ann deals, Ben is to act."""
    service = rigged(storage, 0, [make_deck(WORKED, stock="8s")])
    table_id = await open_table(service, [ANN, BEN, CAT])
    await service.start(table_id, ANN)
    return service, table_id


async def by_seat(storage: AnyStorage, table_id: int, reason: str | None = None) -> dict[int, int]:
    """Ledger rows of the table summed per seat (only rows of ``reason`` if given),
    read through the storage's own connection (either backend)."""
    sql = "SELECT seat, SUM(amount) FROM ledger WHERE table_id = ?"
    params: tuple[Any, ...] = (table_id,)
    if reason is not None:
        sql += " AND reason = ?"
        params += (reason,)
    async with storage._read() as db:
        rows = await storage._all(db, sql + " GROUP BY seat ORDER BY seat", params)
    return {row[0]: row[1] for row in rows}


async def stored_kinds(storage: AnyStorage, table_id: int) -> list[list[str]]:
    """The logged operation kinds of every deal of the table."""
    return [[a.payload["kind"] for a in d.actions] for d in await storage.deals(table_id)]


def snapshot(live: LiveTable) -> dict[str, Any]:
    """Everything the service keeps of a table, for comparing memory with storage."""
    game = live.game
    return {
        "row": live.row,
        "seats": live.seats,
        "events": [(e.kind, e.deal_number, e.member_id, e.attempt, e.text, e.cuts)
                   for e in live.events],
        "shuffle": None if game is None or game.shuffle_log is None else (
            game.shuffle_log.attempts, game.shuffle_log.burned, game.revealed_seed()),
        "deals": None if game is None else [
            (d.dealer, d.deck, list(d.operations), [sorted(h) for h in d.hands], list(d.delta),
             d.finished) for d in game.deals],
        "ledger": None if game is None else game.ledger,
    }


def fail_next_commit(monkeypatch: pytest.MonkeyPatch, storage: AnyStorage,
                     then: list[str] | None = None) -> None:
    """Make the next ``COMMIT`` fail with a disk error (once); ``then`` collects
    ``"failed"`` when it did."""
    original = storage._commit
    done: list[str] = [] if then is None else then

    def sqlite_commit(conn: Any) -> None:
        if not done:
            done.append("failed")
            raise disk_error(storage)
        original(conn)

    async def postgres_commit(tx: Any) -> None:
        if not done:
            done.append("failed")
            raise disk_error(storage)
        await original(tx)

    monkeypatch.setattr(storage, "_commit", postgres_commit if isinstance(storage, PgStorage)
                        else sqlite_commit)


# ------------------------------------------------------------------------- the lobby
async def test_create_opens_the_place_under_the_next_number_and_seats_the_host(storage):
    service = TableService(storage)
    opened: list[int] = []

    async def open_place(number: int) -> tuple[int, str]:
        opened.append(number)
        return 900 + number, "thread"

    first = await service.create(GUILD, 500, ANN, "Ann", "jaques", {"chips": 5}, 45,
                                 open_place=open_place)
    second = await service.create(GUILD, 500, BEN, "Ben", open_place=open_place)

    assert opened == [1, 2]
    assert (first.row.number, first.row.channel_id, first.row.place) == (1, 901, "thread")
    assert (second.row.number, second.row.channel_id, second.row.preset) == (2, 902, "foster")
    assert (first.row.status, first.row.host_id, first.row.next_deal_delay) == ("lobby", ANN, 45)
    assert first.row.options == {"chips": 5} and first.rules.chips == 5
    assert [(s.seat, s.member_id, s.name) for s in first.seats] == [(0, ANN, "Ann")]
    assert await storage.get_table(first.id) == first.row
    assert service.in_channel(901) is first and service.of_member(GUILD, BEN) is second

    with pytest.raises(UserError, match="already seated at table 1"):
        await service.create(GUILD, 501, ANN, "Ann", open_place=open_place)
    with pytest.raises(UserError, match="already open in this channel"):
        await service.create(GUILD, 901, CAT, "Cat")
    with pytest.raises(UserError, match="Unknown rules preset"):
        await service.create(GUILD, 502, CAT, "Cat", "whist")
    assert opened == [1, 2]  # no refused request opened a place
    assert sorted(t.id for t in await storage.open_tables()) == [first.id, second.id]


async def test_join_and_add_ai_fill_the_lobby_up_to_the_preset_limit(storage):
    service = TableService(storage)
    table_id = await open_table(service, [ANN], "jaques")  # jaques seats at most 10
    live = (await service.join(table_id, BEN, "Ben")).live
    with pytest.raises(UserError, match="already seated at this table"):
        await service.join(table_id, BEN, "Ben")
    with pytest.raises(UserError, match="Only players seated"):
        await service.add_ai(table_id, CAT)
    for _ in range(8):
        live = (await service.add_ai(table_id, BEN)).live

    assert [s.member_id for s in live.seats] == [ANN, BEN] + [None] * 8
    assert [s.name for s in live.seats[2:5]] == ["AI Ada", "AI Babbage", "AI Cardano"]
    assert [s.seat for s in live.seats] == list(range(10))
    with pytest.raises(UserError, match=r"full \(10 seats\)"):
        await service.join(table_id, CAT, "Cat")
    with pytest.raises(UserError, match="full"):
        await service.add_ai(table_id, ANN)
    assert await storage.seats(table_id) == live.seats


async def test_leave_hands_the_lobby_on_and_the_last_member_closes_it(storage):
    service = TableService(storage)
    table_id = await open_table(service, [ANN], ai=1)
    await service.join(table_id, BEN, "Ben")

    live = (await service.leave(table_id, ANN)).live  # the host leaves: Ben hosts
    assert live.row.host_id == BEN
    assert [(s.seat, s.member_id) for s in live.seats] == [(0, None), (1, BEN)]
    assert (await storage.get_table(table_id)).host_id == BEN
    with pytest.raises(UserError, match="not seated"):
        await service.leave(table_id, ANN)

    closed = (await service.leave(table_id, BEN)).live  # only an AI seat is left
    assert closed.row.status == "closed"
    assert table_id not in service.tables
    assert (await storage.get_table(table_id)).status == "closed"
    with pytest.raises(UserError, match="closed"):
        await service.join(table_id, CAT, "Cat")
    again = await service.create(GUILD, 501, ANN, "Ann")  # Ann sits nowhere now
    assert again.row.number == 2


async def test_start_draws_the_dealer_deals_and_refuses_lobby_moves_afterwards(storage):
    deck = make_deck(WORKED, dealer=2)
    service = rigged(storage, 2, [deck])
    table_id = await open_table(service, [ANN, BEN])
    with pytest.raises(UserError, match=r"at least 3 players \(now 2\)"):
        await service.start(table_id, ANN)
    await service.add_ai(table_id, BEN)
    with pytest.raises(UserError, match="Only the host"):
        await service.start(table_id, BEN)

    live = (await service.start(table_id, ANN)).live

    assert (live.row.status, live.row.first_dealer) == ("playing", 2)
    assert live.deal_number == 1 and live.deal.dealer == 2
    assert live.deal.to_act == 0 and live.deal.operations == []  # Ann is the eldest hand
    assert sorted(live.deal.hands[2]) == sorted(cards(WORKED[2]))  # the AI dealer's hand
    (stored,) = await storage.deals(table_id)
    assert (stored.number, stored.dealer, stored.status) == (1, 2, "open")
    assert stored.deck == [card_code(c) for c in deck]
    assert live.deal_key == (table_id, stored.number)
    assert await by_seat(storage, table_id) == {}  # antes reach the ledger when the deal settles
    with pytest.raises(UserError, match="already started"):
        await service.start(table_id, ANN)
    with pytest.raises(UserError, match="already started"):
        await service.join(table_id, CAT, "Cat")
    with pytest.raises(UserError, match="game has started"):
        await service.leave(table_id, BEN)


# -------------------------------------------------------------------------- playing
async def test_act_refuses_the_wrong_seat_deal_and_moment_without_writing(storage):
    service, table_id = await worked_table(storage)

    with pytest.raises(UserError, match="not your turn"):
        await act(service, table_id, CAT, "knock")
    with pytest.raises(UserError, match="earlier deal"):
        await act(service, table_id, BEN, "knock", deal=2)
    with pytest.raises(UserError, match="out of date"):
        await act(service, table_id, BEN, "trade", "Kd", seq=1)
    with pytest.raises(UserError, match="not playing"):
        await act(service, table_id, DAN, "knock")
    with pytest.raises(UserError, match="do not hold"):
        await act(service, table_id, BEN, "trade", "Ah")
    assert service.get(table_id).deal.operations == []
    assert await stored_kinds(storage, table_id) == [[]]

    live, op = await act(service, table_id, BEN, "trade", "Kd", seq=0)
    assert op == Trade(1, parse_card("Kd"))
    assert sorted(live.deal.hands[1]) == sorted(cards("6s 7s 8s"))
    with pytest.raises(UserError, match="out of date"):  # a select used once already
        await act(service, table_id, CAT, "knock", seq=0)
    assert await stored_kinds(storage, table_id) == [["trade"]]


async def test_a_move_carries_the_movers_view_from_just_before_it(storage):
    # the answer to a member compares their move with what they saw: the Outcome
    # carries it, read under the table's lock, so no caller reads the service first
    service, table_id = await worked_table(storage)
    seen = service.get(table_id).deal.observation(1)
    outcome = await service.act(table_id, BEN, 1, Decision("trade", parse_card("Kd")))
    assert outcome.seen_before == seen
    assert outcome.seen_before != outcome.live.deal.observation(1)  # Ben's hand changed
    assert parse_card("Kd") in outcome.seen_before.hand


async def test_every_posted_message_id_is_kept_through_the_one_call(storage):
    service, table_id = await worked_table(storage)
    live = service.get(table_id)
    for message in (PostedMessage("lobby", 11), PostedMessage("table", 12),
                    PostedMessage("offer", 13, "1:0"), PostedMessage("showdown", 14),
                    PostedMessage("final", 15)):
        await service.posted(live, message)
    row = await storage.get_table(table_id)
    assert (row.lobby_message_id, row.table_message_id, row.offer_key, row.offer_message_id,
            row.final_message_id) == (11, 12, "1:0", 13, 15)
    assert (await storage.deals(table_id))[0].showdown_message_id == 14
    assert (live.row.lobby_message_id, live.row.table_message_id, live.showdown_messages[1],
            live.row.final_message_id) == (11, 12, 14, 15)
    await service.posted(live, PostedMessage("offer", None))  # the offer closed: forgotten
    row = await storage.get_table(table_id)
    assert (row.offer_key, row.offer_message_id) == (None, None) and service.unsaved == {}
    with pytest.raises(ValueError, match="unknown kind"):
        await service.posted(live, PostedMessage("lobbyy", 1))


async def test_a_knock_settles_the_deal_and_the_next_deal_is_dealt_once(storage):
    service, table_id = await worked_table(storage)
    await act(service, table_id, BEN, "trade", "Kd")
    live, _ = await act(service, table_id, CAT, "knock")

    deal = live.deal
    assert deal.finished and deal.showdown.winner == 1 and deal.showdown.knocker == 2
    assert await by_seat(storage, table_id) == {0: -2, 1: 2, 2: 0}  # docs/RULES.md §1.8
    assert (await storage.deals(table_id))[0].status == "finished"
    assert await storage.leaderboard(GUILD, 0, 10) == ([(BEN, 2), (CAT, 0), (ANN, -2)], 3)
    ben = await storage.member_stats(GUILD, BEN)
    assert (ben.balance, ben.deals, ben.deals_won, ben.best_label) == (2, 1, 1, "sequence to 8")
    assert live.row.status == "playing" and not live.game.complete  # 3 deals in all

    with pytest.raises(UserError, match="already started"):
        await service.next_deal(table_id, 0)
    live = (await service.next_deal(table_id, 1)).live
    assert (live.deal_number, live.deal.dealer, live.deal.to_act) == (2, 1, 2)
    with pytest.raises(UserError, match="already started"):  # a second click on Next deal
        await service.next_deal(table_id, 1)
    with pytest.raises(UserError, match="already started"):  # while deal 2 is open
        await service.next_deal(table_id, 2)
    assert [d.number for d in await storage.deals(table_id)] == [1, 2]
    with pytest.raises(UserError, match="earlier deal"):
        await act(service, table_id, CAT, "knock", deal=1)


async def _timeout_on_own_turn(service: TableService, table_id: int) -> LiveTable:
    """Let Ann's (seat 0) timer run out until it does so on her own turn, dealing on
    as needed; a late barter answer must not count."""
    while True:
        live = service.get(table_id)
        deal = live.deal
        if deal.finished:
            await service.next_deal(table_id, live.deal_number)
            continue
        assert deal.to_act == 0  # the AI seats have played up to Ann
        own_turn = deal.turn == 0 and deal.pending is None
        before = live.seats[0].timeouts
        outcome = await service.timeout(table_id, live.deal_number, len(deal.operations))
        assert outcome is not None and outcome.timed_out == 0
        timed = outcome.live
        if own_turn:
            return timed
        assert timed.seats[0].timeouts == before


async def test_two_timeouts_in_a_row_mark_the_seat_away_until_back(storage):
    service = TableService(storage, rng=random.Random(7))
    table_id = await open_table(service, [ANN], options={"deals_per_player": 5}, ai=2)
    live = (await service.start(table_id, ANN)).live
    stale = len(live.deal.operations) + 5
    assert await service.timeout(table_id, live.deal_number, stale) is None  # moment passed

    live = await _timeout_on_own_turn(service, table_id)
    assert (live.seats[0].timeouts, live.seats[0].away) == (1, False)
    # her own move in between starts the count again
    deal = live.deal
    if deal.finished:
        live = (await service.next_deal(table_id, live.deal_number)).live
        deal = live.deal
    choice = engine_easy.choose(deal.observation(0))
    await act(service, table_id, ANN, choice.kind,
              None if choice.card is None else card_code(choice.card))
    assert service.get(table_id).seats[0].timeouts == 0

    live = await _timeout_on_own_turn(service, table_id)
    assert (live.seats[0].timeouts, live.seats[0].away) == (1, False)
    live = await _timeout_on_own_turn(service, table_id)
    assert (live.seats[0].timeouts, live.seats[0].away) == (2, True)
    assert (await storage.seats(table_id))[0].away
    assert live.is_ai(0) and live.deal.finished  # the AI played her seat to the showdown
    live = (await service.next_deal(table_id, live.deal_number)).live
    assert live.deal.finished  # every seat is played by the AI now

    live = (await service.back(table_id, ANN)).live
    assert (live.seats[0].away, live.seats[0].timeouts) == (False, 0)
    assert not (await storage.seats(table_id))[0].away
    with pytest.raises(UserError, match="not marked away"):
        await service.back(table_id, ANN)
    with pytest.raises(UserError, match="not playing"):
        await service.back(table_id, BEN)


async def test_member_gone_gives_a_running_seat_to_the_ai_and_leaves_a_lobby(storage):
    service, table_id = await worked_table(storage)
    lobby_id = await open_table(service, [DAN], channel=501)
    assert await service.member_gone(GUILD, 99) == []

    changed = await service.member_gone(GUILD, BEN)  # Ben was to act

    assert [t.live.id for t in changed] == [table_id]
    live = service.get(table_id)
    assert live.seats[1].gone and live.is_ai(1) and (await storage.seats(table_id))[1].gone
    assert live.deal.operations[0].seat == 1  # the AI made Ben's move at once
    assert live.deal.finished or live.deal.to_act == 2
    assert (BEN, "member_gone", f"table {table_id}") in await storage.audit_entries(GUILD)

    (gone,) = await service.member_gone(GUILD, DAN)  # the lobby's only member leaves
    lobby = gone.live
    assert gone.ended and gone.emptied == "left"
    assert lobby.row.status == "closed" and lobby_id not in service.tables


async def test_member_gone_from_a_lobby_hands_it_to_the_next_member(storage):
    service = TableService(storage)
    table_id = await open_table(service, [ANN, BEN])
    (changed,) = await service.member_gone(GUILD, ANN)
    live = changed.live
    assert live.id == table_id and live.row.host_id == BEN
    assert [s.member_id for s in live.seats] == [BEN]
    assert service.of_member(GUILD, ANN) is None


# ------------------------------------------------------------------------ the end
async def test_end_voids_the_open_deal_and_keeps_its_record(storage):
    service, table_id = await worked_table(storage)
    await act(service, table_id, BEN, "trade", "Kd")  # antes and a fee are in play
    with pytest.raises(UserError, match="Only the host"):
        await service.end(table_id, CAT, is_manager=False)

    live = (await service.end(table_id, ANN, is_manager=False)).live

    assert live.row.status == "closed" and table_id not in service.tables
    assert live.game.closed and live.deal.voided
    (deal,) = await storage.deals(table_id)
    assert deal.status == "void"
    assert await by_seat(storage, table_id) == {}  # the deal never reached the ledger
    assert await storage.guild_ledger_sum(GUILD) == 0
    assert (ANN, "end_table", f"table {table_id}") in await storage.audit_entries(GUILD)
    record = await service.archive.record(table_id)
    assert record["deals"][0]["actions"] == [{"seat": 1, "action": "trade", "card": "Kd"}]
    with pytest.raises(UserError, match="closed"):
        await act(service, table_id, CAT, "knock", deal=1)


async def test_end_shares_a_carried_pool_from_the_dealers_left(storage):
    # oldway, Ben (seat 1) deals: Ann holds a sequence, Ben a point of 13, Cat a point of 21
    hands = ["3c 4c 5c", "6s 7s Kd", "Ah Kh 4d"]
    deck = make_deck(hands, dealer=1, stock="2d 9c Jh")
    service = rigged(storage, 1, [deck])
    table_id = await open_table(service, [ANN, BEN, CAT], "oldway")
    await service.start(table_id, ANN)
    await act(service, table_id, BEN, "keep_hand")
    for member in (CAT, ANN, BEN):
        live, _ = await act(service, table_id, member, "stand")

    sd = live.deal.showdown
    assert live.deal.finished and (sd.winner, sd.losers, sd.lives) == (0, (1,), (3, 2, 3))
    assert await by_seat(storage, table_id) == {0: -2, 1: -3, 2: -3}  # stakes of 3, best takes 1
    assert await storage.guild_ledger_sum(GUILD) == -8  # 8 points wait in the pool

    await service.end(table_id, ANN, is_manager=False)

    # 8 = 3 × 2 + 2: the two seats first from the dealer's left (Cat, Ann) get one more
    assert await by_seat(storage, table_id, "share") == {0: 3, 1: 2, 2: 3}
    assert await by_seat(storage, table_id) == {0: 1, 1: -1, 2: 0}
    assert await storage.guild_ledger_sum(GUILD) == 0


async def test_an_idle_lobby_closes_and_a_join_keeps_it_open(storage):
    service = TableService(storage, rng=random.Random(3))
    lobby_id = await open_table(service, [ANN])
    playing_id = await open_table(service, [BEN], ai=2, channel=501)
    await service.start(playing_id, BEN)
    assert service.idle_lobbies(1800) == []

    service.activity[lobby_id] -= 1801  # half an hour without a join, leave or AI seat
    assert service.idle_lobbies(1800) == [lobby_id]
    await service.join(lobby_id, CAT, "Cat")
    assert service.idle_lobbies(1800) == []
    assert await service.close_idle(lobby_id, 1800) is None

    service.activity[lobby_id] -= 1801
    closed = (await service.close_idle(lobby_id, 1800)).live
    assert closed.row.status == "closed"
    assert (await storage.get_table(lobby_id)).status == "closed"
    assert lobby_id not in service.tables and lobby_id not in service.activity
    assert (None, "idle_lobby_closed", f"table {lobby_id}") in await storage.audit_entries(GUILD)
    service.activity[playing_id] = -1e9  # a running game is never an idle lobby
    assert service.idle_lobbies(0) == []
    assert await service.close_idle(playing_id, 0) is None
    assert service.get(playing_id).row.status == "playing"


# ------------------------------------------------------------------ failed commits
async def test_a_failed_commit_changes_nothing_and_the_table_goes_on(storage, monkeypatch):
    service, table_id = await worked_table(storage)
    fail_next_commit(monkeypatch, storage)

    with pytest.raises(StorageFailure):
        await act(service, table_id, BEN, "trade", "Kd")

    live = service.get(table_id)
    assert snapshot(live) == snapshot(await TableService(storage)._reload(table_id))
    assert live.deal.operations == [] and sorted(live.deal.hands[1]) == sorted(cards(WORKED[1]))
    assert await stored_kinds(storage, table_id) == [[]]

    await act(service, table_id, BEN, "trade", "Kd")
    live, _ = await act(service, table_id, CAT, "knock")
    assert snapshot(live) == snapshot(await TableService(storage)._reload(table_id))
    assert await by_seat(storage, table_id) == {0: -2, 1: 2, 2: 0}


async def test_a_table_whose_rebuild_fails_too_is_set_aside_and_resumed(storage, monkeypatch):
    service, table_id = await worked_table(storage)
    failed: list[str] = []
    fail_next_commit(monkeypatch, storage, failed)
    get_table = storage.get_table

    async def rebuild_fails(table: int):
        if failed == ["failed"]:  # the rebuild right after the failed commit
            failed.append("rebuild failed")
            raise disk_error(storage)
        return await get_table(table)

    monkeypatch.setattr(storage, "get_table", rebuild_fails)

    with pytest.raises(StorageFailure):
        await act(service, table_id, BEN, "trade", "Kd")

    assert failed == ["failed", "rebuild failed"]
    assert table_id in service.stale and table_id not in service.tables
    with pytest.raises(UserError, match="being restored"):
        service.get(table_id)
    assert service.due(table_id)

    live = (await service.resume(table_id)).live

    assert table_id not in service.stale
    assert snapshot(live) == snapshot(await TableService(storage)._reload(table_id))
    assert live.deal.to_act == 1 and not service.due(table_id)  # Ben's move to make
    assert await service.resume(table_id) is None
    _, op = await act(service, table_id, BEN, "trade", "Kd")
    assert op == Trade(1, parse_card("Kd"))


async def test_resume_plays_an_owed_ai_move_after_a_failed_commit(storage, monkeypatch):
    _, table_id = await worked_table(storage)
    await storage.set_seat_state(table_id, 1, away=True)  # behind the bot's back
    service = TableService(storage)  # a restart
    await service.load()
    assert service.due(table_id) and service.get(table_id).is_ai(1)
    fail_next_commit(monkeypatch, storage)

    with pytest.raises(StorageFailure):
        await service.resume(table_id)

    live = service.get(table_id)
    assert snapshot(live) == snapshot(await TableService(storage)._reload(table_id))
    assert live.deal.operations == [] and service.due(table_id)

    live = (await service.resume(table_id)).live

    assert live.deal.operations[0].seat == 1  # the AI moved for the away seat
    assert [k[0] for k in await stored_kinds(storage, table_id)] == \
        [live.deal.operations[0].kind]
    assert live.deal.finished or live.deal.to_act == 2
    assert not service.due(table_id)
    assert await service.resume(table_id) is None


async def test_load_reports_a_ledger_that_drifted(backend: Backend, caplog):
    """A row added behind the bot's back (an admin's sqlite3 or psql shell) is reported
    at start-up: the books of a guild with an open table are checked."""
    import logging

    storage = await backend.open()
    try:
        service = TableService(storage)
        await service.create(7, 70, 1, "ann")
        await storage.close()
        await backend.execute(
            "INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount,"
            " reason, created_at) VALUES (7, NULL, NULL, NULL, 1, 5, 'gift', 'now')")
        storage = await backend.open()
        with caplog.at_level(logging.ERROR):
            await TableService(storage).load()
        assert "guild 7: the ledger is off by +5 points" in caplog.text
    finally:
        await storage.close()


# ------------------------------------------------------------ one call per interaction
async def test_each_move_is_one_call_on_the_database_thread(storage):
    """A move, the AI's answers and the deal's end with its ledger are written
    together: one round trip (docs/ARCHITECTURE.md "Storage"). A deal takes two: its
    attempt is committed before its deck is derived (docs/FAIRNESS.md "In the bot"),
    then the deal with the AI's first answers."""
    service = TableService(storage, rng=random.Random(3))
    table_id = await open_table(service, [ANN], ai=2)
    calls = storage.round_trips
    live = (await service.start(table_id, ANN)).live
    assert storage.round_trips - calls == 2
    moves = ends = 0
    while not live.game.complete and moves < 200:
        deal = live.deal
        calls = storage.round_trips
        if deal.finished:
            live = (await service.next_deal(table_id, live.deal_number)).live
            assert storage.round_trips - calls == 2
            continue
        assert deal.to_act == 0  # the AI seats answered in the same call
        seq = len(deal.operations)
        live = (await service.act(table_id, ANN, live.deal_number,
                                    engine_easy.choose(deal.observation(0)))).live
        moves += 1
        ends += live.deal.finished
        assert len(live.deal.operations) > seq
        assert storage.round_trips - calls == 1
    assert ends >= 1
    # everything those calls wrote is what a rebuild from storage finds
    again = TableService(storage)
    await again.load()
    if not live.game.complete:
        assert snapshot(again.get(table_id)) == snapshot(live)
    assert await storage.guild_ledger_sum(GUILD) + await storage.points_in_pots(GUILD) == 0


async def test_a_refused_move_touches_nothing(storage):
    service, table_id = await worked_table(storage)
    calls = storage.round_trips
    with pytest.raises(UserError):
        await act(service, table_id, CAT, "knock")  # Ben is to act
    with pytest.raises(UserError):
        await act(service, table_id, BEN, "trade", "2c")  # not in his hand
    assert storage.round_trips == calls


async def test_load_rebuilds_every_open_table_in_one_call(storage):
    """Tables in every state (lobby, mid-deal, between deals, away seats, a
    finished and a closed table) come back from one set-based read equal to the
    table-by-table rebuild."""
    service = TableService(storage, rng=random.Random(11))
    lobby = await open_table(service, [ANN], ai=1, channel=501)
    playing = await open_table(service, [BEN], ai=2, channel=502)
    await service.start(playing, BEN)
    between = await open_table(service, [CAT], ai=2, channel=503)
    live = (await service.start(between, CAT)).live
    while not live.deal.finished:
        live = (await service.act(between, CAT, live.deal_number,
                                    engine_easy.choose(live.deal.observation(live.deal.to_act)))).live
    await storage.set_seat_state(playing, 1, away=True)
    closed = await open_table(service, [DAN], channel=504)
    await service.end(closed, DAN, is_manager=False)

    again = TableService(storage)
    calls = storage.round_trips
    loaded = await again.load()
    assert storage.round_trips - calls == 1
    assert sorted(t.id for t in loaded) == [lobby, playing, between]
    for table_id in (lobby, playing, between):
        one = await TableService(storage)._reload(table_id)
        assert snapshot(again.get(table_id)) == snapshot(one)
        assert again.get(table_id).game_seed == one.game_seed is not None
        assert again.get(table_id).chain_heads() == one.chain_heads()
    # one seed for the whole game, drawn with the lobby; a game holds it too
    assert again.get(lobby).game is None
    for table_id in (playing, between):
        game = again.get(table_id).game
        assert game.shuffler.seed.hex() == again.get(table_id).game_seed
    assert again.get(playing).is_ai(1)


async def test_load_gives_the_garbage_collector_back_as_it_found_it(storage, monkeypatch):
    """``load`` holds the cyclic collector off while it builds (a speed measure);
    afterwards it runs again, also when a table fails to rebuild, and a collector
    that was off stays off."""
    service = TableService(storage, rng=random.Random(3))
    table_id = await open_table(service, [ANN], ai=2)
    await service.start(table_id, ANN)
    seen: list[bool] = []
    build = TableService._build

    def failing(state):
        seen.append(gc.isenabled())
        build(state)
        raise ValueError("a broken table")

    monkeypatch.setattr(TableService, "_build", staticmethod(failing))
    assert gc.isenabled()
    await TableService(storage).load()
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        await TableService(storage).load()
        assert not gc.isenabled()
    finally:
        gc.enable()


# ------------------------------------------------------------------ PostgreSQL only
async def test_a_connection_lost_at_commit_changes_nothing_and_play_goes_on(
        storage, backend, monkeypatch):
    """The server kills the bot's connection in the middle of a move (a restart, an
    admin's pg_terminate_backend): the move is refused with StorageFailure, the
    table is rebuilt from the database on a new connection, and play goes on."""
    if not backend.postgres:
        pytest.skip("PostgreSQL only (SQLite has no connection to lose)")
    service, table_id = await worked_table(storage)
    original = storage._commit

    async def killed(tx: Any) -> None:
        monkeypatch.setattr(storage, "_commit", original)  # once
        await backend.execute("SELECT pg_terminate_backend(?)",
                              (storage._conn_now().get_server_pid(),))
        await asyncio.sleep(0.2)  # the server's notice reaches the connection
        await original(tx)

    monkeypatch.setattr(storage, "_commit", killed)
    with pytest.raises(StorageFailure):
        await act(service, table_id, BEN, "trade", "Kd")

    assert storage.reconnects == 1  # the rebuild connected again
    live = service.get(table_id)
    assert snapshot(live) == snapshot(await TableService(storage)._reload(table_id))
    assert live.deal.operations == [] and await stored_kinds(storage, table_id) == [[]]
    await act(service, table_id, BEN, "trade", "Kd")
    live, _ = await act(service, table_id, CAT, "knock")
    assert await by_seat(storage, table_id) == {0: -2, 1: 2, 2: 0}


async def test_load_serves_only_the_guilds_of_its_shards(storage):
    """``load(shards)``: a process of shards 0-1 of 4 rebuilds the open tables of the
    guilds Discord sends to those shards only ((guild_id >> 22) % 4)."""
    guilds = {shard: (shard + 4 * 10) << 22 for shard in range(4)}
    opened = {}
    service = TableService(storage)
    for shard, guild in guilds.items():
        live = await service.create(guild, 500 + shard, ANN, "Ann")
        opened[shard] = live.id
    again = TableService(storage)
    loaded = await again.load(((0, 1), 4))
    assert sorted(t.id for t in loaded) == [opened[0], opened[1]]
    assert sorted(t.row.guild_id for t in loaded) == [guilds[0], guilds[1]]
    assert sorted(t.id for t in await TableService(storage).load()) == sorted(opened.values())

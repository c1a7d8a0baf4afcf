"""Issue 11: the reports of ``Storage`` (``bot/storage/reports.py``): the leaderboard
by preset and since a moment, a member's trades, barters and best hand per preset
with the deal it came from, and the presets a guild played. On both backends
(tests/storage/conftest.py): the two statements that read JSON are written once
per dialect."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.engine import BarterAnswer, BarterOffer, Knock, Trade, operation_to_dict, parse_card
from bot.engine.hands import category_of, describe, score
from bot.service.queries import PERIODS, period_start
from bot.storage import AnyStorage, HandResult, LedgerEntry
from tests.storage.backends import Backend

DECK = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
GUILD, OTHER_GUILD = 1001, 2002
ANN, BEN, CAT, DAN, MOD = 11, 12, 13, 14, 99


async def started(store: AnyStorage, preset: str, members: list[int | None], guild: int = GUILD):
    """A started table of ``preset`` with one seat per member (None: an AI seat)."""
    table = await store.create_table(guild, 500, members[0] or 1, preset, {}, 30)
    for i, member in enumerate(members):
        await store.add_seat(table.id, member, f"P{i}")
    await store.start_game(table.id, first_dealer=0)
    return table


def op(operation) -> dict:
    return operation_to_dict(operation)


def hand(seat: int, member: int | None, codes: str, ranking: str = "classic", *,
         won: bool = False, knocked: bool = False) -> HandResult:
    """A seat's final hand as the service records it (its real score and label)."""
    cards = [parse_card(c) for c in codes.split()]
    s = score(cards, ranking)
    return HandResult(seat, member, s, describe(cards, ranking), won,
                      category_of(s).name.lower(), knocked)


async def play(store: AnyStorage, table, number: int, moves: list[tuple[dict, int | None]],
               hands: list[HandResult], ledger: list[LedgerEntry] | None = None,
               status: str = "finished"):
    """Deal ``number`` of ``table``: its logged moves, then its close."""
    key = await store.start_deal(table.id, number, 0, DECK)
    for seq, (payload, member) in enumerate(moves):
        await store.append_action(key, seq, payload, member)
    await store.finish_deal(key, status, ledger or [], hands)
    return key


async def insert_ledger(backend: Backend,
                        rows: list[tuple[int, int | None, int | None, int, str, str]]) -> None:
    """Ledger rows ``(guild, table, member, amount, reason, created_at)`` written behind
    the storage's back (the ledger only forbids changing rows, not adding them)."""
    await backend.executemany(
        "INSERT INTO ledger (guild_id, table_id, deal_id, seat, member_id, amount, reason,"
        " created_at) VALUES (?, ?, NULL, NULL, ?, ?, ?, ?)", rows)


# ------------------------------------------------------------------ trades, barters, best hands


async def test_trades_barters_and_best_hands_per_preset_by_the_members_seat(store: AnyStorage) -> None:
    foster = await started(store, "foster", [ANN, BEN, None])
    kd, qs, two, three = (parse_card(c) for c in ("Kd", "Qs", "2c", "3h"))
    # deal 1 (the service numbers deals from 1): Ann trades twice (once knocking);
    # Ben's barter is accepted by the AI, Ann's is refused; the AI's own trade is nobody's
    await play(store, foster, 1, [
        (op(Trade(0, kd)), ANN),
        (op(BarterOffer(1, qs)), BEN), (op(BarterAnswer(2, two)), None),
        (op(Trade(2, three)), None),
        (op(BarterOffer(0, two)), ANN), (op(BarterAnswer(1, None)), BEN),
        (op(Trade(0, qs, knock=True)), ANN),
    ], [hand(0, ANN, "Kc Kd Kh", won=True, knocked=True), hand(1, BEN, "2s 3s 4s")])
    # deal 2: Ann's best is still deal 1's tricon (an equal hand later does not replace it)
    await play(store, foster, 2, [(op(Trade(1, kd)), BEN), (op(Knock(0)), ANN)],
               [hand(0, ANN, "Ks Kd Kh", knocked=True), hand(1, BEN, "Ac Ad Ah", won=True)])
    # a void deal counts for nothing, whatever it held
    await play(store, foster, 3, [(op(Trade(0, kd)), ANN)], [], status="void")
    await store.finish_game(foster.id, [0], "finished")
    # foster-more: Ann in seat 1
    more = await started(store, "foster-more", [BEN, ANN])
    await play(store, more, 1, [(op(Trade(1, kd)), ANN), (op(Trade(0, qs)), BEN),
                                (op(BarterOffer(1, two)), ANN), (op(BarterAnswer(0, three)), BEN)],
               [hand(0, BEN, "2c 2d 9h", "more"), hand(1, ANN, "4h 5h 6h", "more", won=True)])
    # another guild never counts
    away = await started(store, "foster", [ANN], guild=OTHER_GUILD)
    await play(store, away, 1, [(op(Trade(0, kd)), ANN)], [hand(0, ANN, "Ac Ad Ah", won=True)])

    ann = await store.member_stats(GUILD, ANN)
    assert [p.preset for p in ann.presets] == ["foster", "foster-more"]
    f, m = ann.presets
    assert (f.deals, f.deals_won, f.trades, f.barters, f.barters_accepted) == (2, 1, 2, 1, 0)
    assert (f.knocks, f.knocks_won) == (2, 1)
    assert f.won_by_category == {"tricon": 1}
    assert f.best is not None
    assert (f.best.label, f.best.table_number, f.best.deal_number) == ("tricon of kings", 1, 1)
    assert f.best.finished_at is not None
    assert f.best.finished_at[:10] == datetime.now(UTC).strftime("%Y-%m-%d")
    assert (m.deals, m.deals_won, m.trades, m.barters, m.barters_accepted) == (1, 1, 1, 1, 1)
    assert m.best is not None and (m.best.label, m.best.table_number) == ("sequence to 6", 2)
    # the overall best is the tricon (a higher category than any sequence)
    assert ann.best == f.best and ann.best_label == "tricon of kings"
    assert (ann.deals, ann.deals_won) == (3, 2)
    assert ann.won_by_category == {"sequence": 1, "tricon": 1}
    assert [(k.preset, k.knocks, k.knocks_won) for k in ann.knocks] == [("foster", 2, 1)]

    ben = await store.member_stats(GUILD, BEN)
    bf, bm = ben.presets
    assert (bf.trades, bf.barters, bf.barters_accepted) == (1, 1, 1)
    assert (bm.trades, bm.barters, bm.barters_accepted) == (1, 0, 0)
    assert bf.best is not None and (bf.best.label, bf.best.deal_number) == ("tricon of aces", 2)
    assert ben.knocks == []

    nobody = await store.member_stats(GUILD, DAN)
    assert nobody.presets == [] and nobody.best is None and nobody.best_label is None


async def test_presets_played_counts_started_games_only(store: AnyStorage) -> None:
    assert await store.presets_played(GUILD) == []
    await started(store, "jaques", [ANN, None])
    await started(store, "foster", [BEN, None])
    await started(store, "foster", [CAT, None])
    await store.create_table(GUILD, 500, DAN, "oldway", {}, 30)  # a lobby: not played
    await started(store, "widow", [ANN], guild=OTHER_GUILD)
    assert await store.presets_played(GUILD) == ["foster", "jaques"]


# ------------------------------------------------------------------ the leaderboard's filters


async def test_leaderboard_by_preset_and_since_a_moment(store: AnyStorage,
                                                       backend: Backend) -> None:
    foster = await started(store, "foster", [ANN, BEN])
    await play(store, foster, 0, [], [], [LedgerEntry(0, ANN, 3, "pool"),
                                          LedgerEntry(1, BEN, -3, "ante")])
    await store.finish_game(foster.id, [0], "finished")
    jaques = await started(store, "jaques", [CAT, ANN, None])
    await play(store, jaques, 0, [], [], [LedgerEntry(0, CAT, 1, "pool"),
                                          LedgerEntry(1, ANN, -1, "ante"),
                                          LedgerEntry(2, None, 5, "pool")])
    long_ago = "2001-02-05T12:00:00+00:00"
    await insert_ledger(backend, [(GUILD, foster.id, DAN, 7, "pool", long_ago),
                            (GUILD, foster.id, BEN, -7, "ante", long_ago),
                            (OTHER_GUILD, foster.id, ANN, 100, "pool", long_ago)])
    week = period_start("week", datetime.now(UTC))

    assert await store.leaderboard(GUILD, 0, 10) == (
        [(DAN, 7), (ANN, 2), (CAT, 1), (BEN, -10)], 4)
    assert await store.leaderboard(GUILD, 0, 10, preset="foster") == (
        [(DAN, 7), (ANN, 3), (BEN, -10)], 3)
    assert await store.leaderboard(GUILD, 0, 10, preset="jaques") == ([(CAT, 1), (ANN, -1)], 2)
    assert await store.leaderboard(GUILD, 0, 10, since=week) == (
        [(ANN, 2), (CAT, 1), (BEN, -3)], 3)
    assert await store.leaderboard(GUILD, 0, 10, preset="foster", since=week) == (
        [(ANN, 3), (BEN, -3)], 2)
    assert await store.leaderboard(GUILD, 1, 1, preset="foster", since=week) == ([(BEN, -3)], 2)
    assert await store.leaderboard(GUILD, 0, 10, preset="widow") == ([], 0)
    future = datetime.now(UTC) + timedelta(days=1)
    assert await store.leaderboard(GUILD, 0, 10, since=future) == ([], 0)
    # a moment in another time zone means the same instant
    assert await store.leaderboard(
        GUILD, 0, 10, since=datetime(2001, 2, 5, 13, 0, tzinfo=UTC).astimezone(
            datetime.now().astimezone().tzinfo)) == ([(ANN, 2), (CAT, 1), (BEN, -3)], 3)


async def test_a_ledger_reset_starts_every_board_again(store: AnyStorage) -> None:
    foster = await started(store, "foster", [ANN, BEN])
    await play(store, foster, 0, [], [], [LedgerEntry(0, ANN, 4, "pool"),
                                          LedgerEntry(1, BEN, -4, "ante")])
    jaques = await started(store, "jaques", [CAT, DAN])
    await play(store, jaques, 0, [], [], [LedgerEntry(0, CAT, 2, "pool"),
                                          LedgerEntry(1, DAN, -2, "ante")])
    await store.reset_ledger(GUILD, MOD)
    zeros = ([(ANN, 0), (BEN, 0), (CAT, 0), (DAN, 0)], 4)
    assert await store.leaderboard(GUILD, 0, 10) == zeros
    assert await store.leaderboard(GUILD, 0, 10, preset="foster") == ([(ANN, 0), (BEN, 0)], 2)
    week = period_start("week", datetime.now(UTC))
    assert await store.leaderboard(GUILD, 0, 10, since=week) == zeros
    # after the reset, only what is won since counts, in every board
    await play(store, foster, 1, [], [], [LedgerEntry(0, ANN, -1, "ante"),
                                          LedgerEntry(1, BEN, 1, "pool")])
    assert await store.leaderboard(GUILD, 0, 10, preset="foster", since=week) == (
        [(BEN, 1), (ANN, -1)], 2)
    board = await store.leaderboard(GUILD, 0, 10)
    assert board == ([(BEN, 1), (CAT, 0), (DAN, 0), (ANN, -1)], 4)
    # the whole board is still each member's ledger balance
    for member, balance in board[0]:
        assert (await store.member_stats(GUILD, member)).balance == balance


# ------------------------------------------------------------------ periods


@pytest.mark.parametrize(("now", "week", "month"), [
    (datetime(2025, 6, 4, 15, 30, tzinfo=UTC), datetime(2025, 6, 2, tzinfo=UTC),
     datetime(2025, 6, 1, tzinfo=UTC)),
    (datetime(2025, 6, 2, 0, 0, tzinfo=UTC), datetime(2025, 6, 2, tzinfo=UTC),
     datetime(2025, 6, 1, tzinfo=UTC)),
    (datetime(2025, 3, 1, 23, 59, 59, tzinfo=UTC), datetime(2025, 2, 24, tzinfo=UTC),
     datetime(2025, 3, 1, tzinfo=UTC)),
    # Monday 05:00 at UTC+10 is still Sunday in UTC: the week began the Monday before
    (datetime(2025, 6, 2, 5, 0, tzinfo=timezone(timedelta(hours=10))),
     datetime(2025, 5, 26, tzinfo=UTC), datetime(2025, 6, 1, tzinfo=UTC)),
])
def test_periods_are_utc_calendar_weeks_and_months(now, week, month) -> None:
    assert period_start("week", now) == week
    assert period_start("month", now) == month
    assert period_start("all", now) is None
    assert set(PERIODS) == {"week", "month", "all"}
    with pytest.raises(ValueError):
        period_start("fortnight", now)

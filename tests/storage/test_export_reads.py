"""The reads of a server's export (``/commerce-admin export``), on both backends: the
guild's ledger in pages by id, up to a row fixed when the reading began, with each row's
table and deal numbers; its open tables by number and status only; nothing of another
guild."""

from __future__ import annotations

from bot.storage import AnyStorage, LedgerEntry
from tests.storage.test_storage import ANN, BEN, CAT, DAN, GUILD, OTHER_GUILD, playing_table


async def test_the_ledger_reads_in_pages_of_one_guild_up_to_a_fixed_row(store: AnyStorage) -> None:
    table, deal = await playing_table(store, [ANN, BEN])
    other, other_deal = await playing_table(store, [CAT, None], guild=OTHER_GUILD)
    await store.finish_deal(deal, "void", [LedgerEntry(0, ANN, 2, "refund"),
                                           LedgerEntry(1, BEN, -2, "refund")], [])
    await store.finish_deal(other_deal, "void", [LedgerEntry(0, CAT, 5, "refund"),
                                                 LedgerEntry(1, None, -5, "refund")], [])
    await store.reset_ledger(GUILD, ANN)
    assert await store.ledger_last_id(12345) == 0
    last = await store.ledger_last_id(GUILD)
    # a row written after the reading began is not part of it
    await store.add_ledger(GUILD, table.id, None, [LedgerEntry(0, ANN, 1, "share")])

    pages, after = [], 0
    while page := await store.ledger_rows(GUILD, after, last, 2):
        pages.append(page)
        after = page[-1].id
    rows = [r for page in pages for r in page]
    assert [len(p) for p in pages] == [2, 2]
    assert [(r.table_number, r.deal_number, r.seat, r.member_id, r.amount, r.reason)
            for r in rows] == [
        (table.number, 0, 0, ANN, 2, "refund"), (table.number, 0, 1, BEN, -2, "refund"),
        (None, None, None, ANN, -2, "reset"), (None, None, None, BEN, 2, "reset")]
    assert rows[-1].id == last and all(r.created_at for r in rows)
    # the other guild's rows are never among them
    assert CAT not in {r.member_id for r in rows} and all(r.amount != 5 for r in rows)
    assert await store.ledger_rows(GUILD, last, last, 10) == []


async def test_open_tables_are_numbers_and_statuses_of_one_guild(store: AnyStorage) -> None:
    playing, _ = await playing_table(store, [ANN, BEN])
    lobby = await store.create_table(GUILD, 501, CAT, "foster", {}, 30)
    done, _ = await playing_table(store, [DAN, None])
    await store.finish_game(done.id, [0], "finished")
    await playing_table(store, [CAT, None], guild=OTHER_GUILD)
    assert await store.open_table_numbers(GUILD) == [(playing.number, "playing"),
                                                     (lobby.number, "lobby")]

"""Issue 24: ratings through the table service. A finished game's ratings are
written in the one transaction that finishes it (the final press stays one round
trip), and exactly once: whatever fails or restarts on the way — a commit that
fails at the game's end and is pressed again, a restart before the last press or
after it — the stored ratings are those of rating every finished game once, in
order (a property test), on SQLite; one case on both backends."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import Decision, replay
from bot.engine import easy as engine_easy
from bot.service import StorageFailure, TableService
from bot.service.skill import final_ranks, player_of, rate
from bot.storage import AnyStorage, Storage
from tests.service.test_service import GUILD, fail_next_commit

ANN = 11
FAULTS = ("none", "fail_final_commit", "restart_before_final", "restart_after_final")


class Patch:
    """``monkeypatch``'s ``setattr`` for one example of a property test."""

    def __init__(self) -> None:
        self.undo: list[tuple[object, str, object]] = []

    def setattr(self, target: object, name: str, value: object) -> None:
        self.undo.append((target, name, getattr(target, name)))
        setattr(target, name, value)

    def restore(self) -> None:
        for target, name, value in reversed(self.undo):
            setattr(target, name, value)
        self.undo.clear()


async def play_game(store: AnyStorage, service: TableService, levels: tuple[str, str],
                    fault: str, patch: Patch) -> TableService:
    """Ann and two AI seats of ``levels`` play a foster game to its end, Ann knocking
    in the last deal; ``fault`` happens at its first press in the last deal. Returns
    the service that finished it (a new one after a restart)."""
    live = await service.create(GUILD, 500, ANN, "Ann", "foster", None)
    for level in levels:
        await service.add_ai(live.id, ANN, level)
    await service.commitment_posted(live.id, 9000 + live.id)
    table_id = live.id
    live = (await service.start(table_id, ANN)).live
    armed = fault
    while not live.game.complete:
        if live.deal.finished:
            live = (await service.next_deal(table_id, live.deal_number)).live
            continue
        last = live.game.deals_total is not None and live.deal_number == live.game.deals_total
        decision = engine_easy.choose(live.deal.observation(0))
        if last:
            if "knock" in live.deal.legal_actions(0):
                decision = Decision("knock")
            if armed == "fail_final_commit":
                failed: list[str] = []
                fail_next_commit(patch, store, failed)
                armed = "none"
                with pytest.raises(StorageFailure):
                    await service.act(table_id, ANN, live.deal_number, decision)
                assert failed == ["failed"]
                patch.restore()
                live = service.get(table_id)
                continue
            if armed == "restart_before_final":
                armed = "none"
                service = TableService(store, rng=random.Random(table_id))
                await service.load()
                live = service.get(table_id)
                continue
        live = (await service.act(table_id, ANN, live.deal_number, decision)).live
    if armed == "restart_after_final":
        service = TableService(store, rng=random.Random(table_id))
        await service.load()
    return service


async def expected_ratings(store: AnyStorage, service: TableService) -> dict[tuple, tuple]:
    """The ratings of rating each finished game once, in the order they finished:
    ``(member_id, ai_level) -> (mu, sigma, games)``."""
    out: dict[tuple, tuple] = {}
    for (table_id,) in await _rows(store, "SELECT table_id FROM games WHERE finished_at"
                                            " IS NOT NULL ORDER BY table_id"):
        game = replay(await service.archive.record(table_id))
        players = [player_of(s) for s in await store.seats(table_id)]
        keys = [(p.member_id, p.ai_level) for p in players]
        after = rate([None if k not in out else out[k][:2] for k in keys], final_ranks(game))
        moved: dict[tuple, list] = {}
        for key, new in zip(keys, after, strict=True):
            moved.setdefault(key, []).append(new)
        for key, news in moved.items():
            games = out[key][2] + 1 if key in out else 1
            out[key] = (sum(m for m, _ in news) / len(news), sum(s for _, s in news) / len(news),
                        games)
    return out


async def _rows(store: AnyStorage, sql: str, params: tuple = ()) -> list:
    async with store._read() as db:
        return list(await store._all(db, sql, params))


async def stored_ratings(store: AnyStorage) -> dict[tuple, tuple]:
    return {(r[0], r[1]): (r[2], r[3], r[4]) for r in await _rows(
        store, "SELECT member_id, ai_level, mu, sigma, games FROM ratings WHERE guild_id = ?",
        (GUILD,))}


def assert_same(stored: dict[tuple, tuple], expected: dict[tuple, tuple]) -> None:
    assert stored.keys() == expected.keys()
    for key, (mu, sigma, games) in expected.items():
        assert stored[key][2] == games, key
        assert stored[key][0] == pytest.approx(mu) and stored[key][1] == pytest.approx(sigma), key


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games=st.lists(st.tuples(st.sampled_from(FAULTS),
                                st.tuples(st.sampled_from(("easy", "normal")),
                                          st.sampled_from(("easy", "normal")))),
                      min_size=1, max_size=3),
       seed=st.integers(0, 1000))
async def test_every_finished_game_is_rated_exactly_once(games, seed):
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "commerce.db")
        patch = Patch()
        try:
            service = TableService(storage, rng=random.Random(seed))
            for fault, levels in games:
                service = await play_game(storage, service, levels, fault, patch)
            rated = await _rows(storage, "SELECT table_id FROM rated_games ORDER BY table_id")
            finished = await _rows(storage, "SELECT table_id FROM games WHERE finished_at"
                                            " IS NOT NULL ORDER BY table_id")
            assert [tuple(r) for r in rated] == [tuple(r) for r in finished]
            assert len(finished) == len(games)
            assert_same(await stored_ratings(storage), await expected_ratings(storage, service))
        finally:
            patch.restore()
            await storage.close()


async def test_a_failed_final_commit_pressed_again_rates_once(storage):
    patch = Patch()
    try:
        service = await play_game(storage, TableService(storage, rng=random.Random(4)),
                                  ("normal", "normal"), "fail_final_commit", patch)
    finally:
        patch.restore()
    assert_same(await stored_ratings(storage), await expected_ratings(storage, service))
    stored = await stored_ratings(storage)
    assert stored[(ANN, "")][2] == 1 and stored[(0, "normal")][2] == 1

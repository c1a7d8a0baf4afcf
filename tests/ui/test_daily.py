"""Issue 24 §2: what a member sees of the daily deal (``bot/ui/daily.py``) keeps within
Discord's limits at every step of many days' deals, names a hostile name inertly, and
shows no card but the member's own while the deal runs."""

from __future__ import annotations

import datetime
import hashlib
import re

import pytest

from bot.engine.daily import DailyGame
from bot.service.daily import BoardLine, DailyBoard, DailyProof, DailyState
from bot.ui import daily as ui
from bot.ui.cards import hand_label
from tests.ui.limits import embed_problems, view_problems

DAY = datetime.date(2026, 12, 3)
GUILD, MEMBER = 10**18, 2 * 10**18
HOSTILE = "**@everyone** [x](https://evil.example) <@1>"
CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])[♣♦♥♠♧♢♡♤]")


def state_of(game: DailyGame) -> DailyState:
    return DailyState(game, "c" * 64, "d" * 64, datetime.datetime(2026, 12, 4, tzinfo=datetime.UTC))


@pytest.mark.parametrize("n", range(12))
def test_every_step_of_a_days_game_keeps_within_discords_limits(n):
    seed = hashlib.sha256(f"day {n}".encode()).digest()
    game = DailyGame.start(seed, DAY)
    while True:
        state = state_of(game)
        live = ui.daily_table(state, GUILD, MEMBER, HOSTILE)
        embed = ui.game_embed(state, live, note=ui.resumed_note())
        assert embed_problems(embed) == []
        text = "\n".join([embed.description or ""] + [f.value for f in embed.fields])
        assert "@everyone" not in text and "](https://" not in text
        view = ui.game_view(state, live, GUILD)
        if game.finished:
            assert view is None and "Your result" in [f.name for f in embed.fields]
            break
        assert view is not None and view_problems(view) == []
        # while the deal runs the only cards named are the member's own and those laid
        # face up (a trade shows the card given)
        own = set(re.findall(CARD, hand_label(game.deal.observation(game.seat).hand or ())))
        shown = {c for e in game.deal.events if e.shown is not None
                 for c in re.findall(CARD, hand_label([e.shown]))}
        assert set(re.findall(CARD, embed.description or "")) <= own | shown
        items = view.children
        assert all(i.custom_id.startswith(f"commerce:daily:{GUILD}:") for i in items)
        decisions = [d for name in game.deal.legal_actions(game.seat)
                     for d in game.deal.choices(game.seat, name)]
        assert len(items) == len(decisions)
        game.act(decisions[n % len(decisions)])


def test_the_board_names_members_inertly_and_within_limits():
    lines = [BoardLine(i + 1, MEMBER + i, HOSTILE if i % 2 else "ann", 10 - i, 4.5 - i)
             for i in range(40)]
    embed = ui.board_embed(DailyBoard(DAY, lines, False), DAY)
    assert embed_problems(embed) == []
    assert "@everyone" not in embed.description
    assert embed.description.splitlines()[0] == "1. ann: +10 points, duplicate +4.5"
    assert len(embed.description.splitlines()) == ui.BOARD_LINES
    empty = ui.board_embed(DailyBoard(DAY, [], False), DAY)
    assert "Nobody has finished" in empty.description


def test_the_proof_shows_the_seed_only_when_given():
    ends = datetime.datetime(2026, 12, 4, tzinfo=datetime.UTC)
    hidden = ui.proof_embed(DailyProof(DAY, "c" * 64, None, False, ends))
    assert "c" * 64 in str(hidden.to_dict()) and "Secret until the day ends" in str(hidden.to_dict())
    shown = ui.proof_embed(DailyProof(DAY, "c" * 64, "a" * 64, True, ends))
    assert "a" * 64 in str(shown.to_dict()) and "✅" in str(shown.to_dict())
    assert embed_problems(hidden) == embed_problems(shown) == []

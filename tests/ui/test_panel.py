"""A player's private panel (bot/ui/panel.py), built from a table in memory: at every
moment of games of every preset at their largest tables, with the longest names,
every seat's controls fit Discord's five rows of five buttons (a menu alone on its
row, 25 options, 80-character labels, ids unique and at most 100 characters), each
decision the seat may make now is offered exactly once, and only to that seat."""

from __future__ import annotations

import random

import discord
import pytest

from bot.engine import Decision, Game, choices, easy, get_preset, shuffled_deck
from bot.ui import panel
from bot.ui.components import CardSelect, PickButton
from tests.ui.limits import CONTENT, view_problems
from tests.ui.test_words import live_table

#: 32-character names, the longest a member shows (``names.MAX_NAME``)
LONG = [f"Player {i:02d} with a very long nick"[:32].ljust(32, "x") for i in range(12)]
TABLES = [("foster", {}), ("hoyle", {}), ("widow", {}), ("oldway", {"pounce": True}),
          ("jaques", {"direct_trading": True}), ("jaques", {"open_trading": True})]


def games(preset: str, options: dict, seed: int, deals: int = 2):
    """Every moment of ``deals`` deals at the largest table of ``preset`` (the AI
    moving for every seat; the first two seats are members)."""
    rules = get_preset(preset, options)
    n = rules.max_players
    rng = random.Random(f"{preset} {options} {seed}")
    game = Game(rules, n, rng.randrange(n))
    live = live_table(game, LONG[:n], humans=2)
    for _ in range(deals):
        if game.complete:
            return
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        yield live, deal
        while not deal.finished:
            deal.act(deal.to_act, easy.choose(deal.observation(deal.to_act)))
            yield live, deal


def picks(view) -> list[tuple[str, str]]:
    """The ``(control, value)`` of every pick button and menu option of a panel."""
    out = []
    for row in view.to_components():
        for c in row["components"]:
            parts = c["custom_id"].split(":")
            if c["type"] == 2 and parts[1] == "pick":
                out.append((parts[5], parts[6] if len(parts) > 6 else ""))
            elif c["type"] == 3:
                out += [(parts[5], o["value"]) for o in c["options"]]
    return out


@pytest.mark.parametrize(("preset", "options"), TABLES, ids=[f"{p}{o}" for p, o in TABLES])
def test_every_panel_fits_discord_and_offers_each_decision_once(preset, options):
    moments = 0
    for live, deal in games(preset, options, 1, deals=1):
        for seat in range(deal.n):
            grouped = panel.groups(deal, seat)
            view = panel.controls_view(live, seat, None)
            assert (view is None) == (not grouped)
            if view is None:
                continue
            assert view_problems(view) == [], (preset, seat, view_problems(view))
            offered = [(control, value) for control, value in picks(view) if control != "hint"]
            legal = [d for _, ds in grouped for d in ds]
            # a menu of more than 25 decisions shows its first 25 (``CardSelect``)
            assert len(offered) == len(set(offered)) <= len(legal)
            for control, value in offered:
                decision = choices.decide(control, value) if value else Decision(control)
                if decision.kind == "offer" and decision.target is None:
                    # a card offered to a player picked next (many players to pick from)
                    assert any(d.kind == "offer" and d.card == decision.card for d in legal)
                    continue
                assert decision in legal, (preset, seat, control, value)
            if len(legal) <= 25:
                assert len(offered) == len(legal)
            hint = ("hint", "") in picks(view)
            assert hint == (live.row.coach and deal.to_act == seat and not deal.finished)
            for focus in {name for name, _ in grouped if name in choices.SELECTS}:
                focused = panel.controls_view(live, seat, focus)
                assert focused is not None and view_problems(focused) == []
                first = focused.to_components()[0]["components"][0]
                assert first["type"] == 3 and first["custom_id"].split(":")[5] == focus
            moments += 1
    assert moments > 5  # the loop saw a deal being played


@pytest.mark.parametrize(("preset", "options"), TABLES[:4], ids=[p for p, _ in TABLES[:4]])
def test_a_panel_says_the_hand_and_keeps_within_a_messages_length(preset, options):
    for i, (live, deal) in enumerate(games(preset, options, 2, deals=1)):
        if i % 7:
            continue  # a panel draws its hand: a sample of the moments is enough
        for seat in (0, 1):
            shown = panel.build(live, seat, note="You traded.")
            assert len(shown.content) <= CONTENT
            assert shown.content.startswith("You traded.\n**Your hand:**")
            assert shown.key == panel.key_of(live, seat, note="You traded.")
            if deal.finished:
                assert shown.view is None or panel.groups(deal, seat) != []
                assert "**Your result:**" in shown.content


def test_a_panels_controls_are_sent_as_discord_py_would_send_its_items():
    """The payloads ``controls_view`` makes straight are those of the discord.py
    items of ``PickButton.button`` and ``CardSelect.menu`` of the same ids,
    labels, styles, options and placeholders."""
    seen = 0
    for live, _deal in games("foster", {}, 4, deals=1):
        for seat in (0, 1):
            for focus in (None, "trade"):
                view = panel.controls_view(live, seat, focus)
                if view is None:
                    continue
                assert view.is_finished() and not view.is_dispatchable()
                for row in view.to_components():
                    for c in row["components"]:
                        _, kind, table, number, seq, action, *value = c["custom_id"].split(":")
                        args = (int(table), int(number), int(seq), action)
                        if kind == "pick":
                            item = PickButton.button(
                                *args, value[0] if value else None, label=c["label"],
                                style=discord.ButtonStyle(c["style"]))
                        else:
                            item = CardSelect.menu(*args, [(o["label"], o["value"])
                                                           for o in c["options"]],
                                                   placeholder=c["placeholder"])
                        assert item.to_component_dict() == c
                        seen += 1
    assert seen > 20


def test_the_focused_action_and_any_of_more_than_three_decisions_become_menus():
    one = Decision("knock")
    trades = [Decision("trade", c) for c in range(3)]
    assert panel.layout([("trade", trades), ("knock", [one])], None) == {
        "trade": False, "knock": False}
    assert panel.layout([("trade", trades), ("knock", [one])], "trade")["trade"] is True
    # a "then knock" twin of each card: one menu, not two rows of look-alike buttons
    twins = trades + [Decision("trade", c, knock=True) for c in range(3)]
    assert panel.layout([("trade", twins), ("knock", [one])], None) == {
        "trade": True, "knock": False}
    swaps = [Decision("swap", give=(c,), take=(0,)) for c in range(9)]
    grouped = [("trade", trades), ("barter", trades), ("swap", swaps), ("knock", [one])]
    assert panel.layout(grouped, None) == {"trade": False, "barter": False, "swap": True,
                                           "knock": False}


#: the most controls a panel shows at the start of a turn, by preset (issue 23 §3:
#: Hoyle's had 14 buttons over 4 or 5 rows, the widow's 11, Jaques' 13)
FEWEST = {"hoyle": 4, "widow": 4, "jaques": 7, "foster": 8}


@pytest.mark.parametrize("preset", sorted(FEWEST))
def test_a_turn_shows_few_controls_and_still_every_move(preset):
    seen = 0
    for live, deal in games(preset, {}, 3, deals=2):
        seat = deal.to_act
        if deal.finished or seat is None or seat > 1 or deal.pending is not None:
            continue
        view = panel.controls_view(live, seat, None)
        assert view is not None
        controls = view.to_components()
        count = sum(len(row["components"]) for row in controls)
        assert count <= FEWEST[preset], (preset, [c.get("label") or c.get("placeholder")
                                                  for row in controls for c in row["components"]])
        assert len(controls) <= 3
        legal = {d for _, ds in panel.groups(deal, seat) for d in ds}
        offered = {choices.decide(c, v) if v else Decision(c) for c, v in picks(view)
                   if c != "hint"}
        assert offered == legal
        for row in controls:
            for c in row["components"]:
                if c["type"] == 3:  # a menu says which action it makes
                    assert c["placeholder"].startswith((
                        "Trade: ", "Barter: card to offer ", "Swap: ", "Take discard: ",
                        "Keep the drawn card")), c
        seen += 1
    assert seen


def test_a_panel_of_an_earlier_deal_points_to_the_current_one():
    assert panel.over(2, 3) == "Deal 2 is over. Press **My hand** for your cards in deal 3."
    assert panel.over(2, None) == "Deal 2 is over."

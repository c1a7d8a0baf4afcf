"""The one table of the game's controls (``bot.ui.controls``): every action has
exactly one control; the table message, the offer, the panel and the hand's
"You may:" line show the same label; the ids the bot sends still parse, in
exactly the format of the ids already on Discord's messages."""

from __future__ import annotations

import random
import re

import discord
import pytest

from bot.engine import choices
from bot.engine.actions import ANSWERS, BUTTONS, MOVES, SELECTS, Action
from bot.engine.cards import shuffled_deck
from bot.engine.game import Game
from bot.engine.rules import get_preset
from bot.ui import controls, panel, render
from bot.ui.components import AnswerButton, CardSelect, PickButton, PlayButton
from bot.ui.controls import CONTROLS, SELECT_NAMES, TABLE_NAMES

#: the id patterns as they were written out by hand before the table: the ids of
#: messages already sent must keep parsing, and nothing more may
OLD_PATTERNS = {
    PlayButton: (r"commerce:play:(?P<table>\d+):(?P<deal>\d+):(?P<action>hand|trade|barter|knock"
                 r"|back|swap|stand|take_widow|keep_hand|pounce|buy_horse|decline_horse"
                 r"|take_discard|draw|pass|offer)"),
    AnswerButton: (r"commerce:answer:(?P<table>\d+):(?P<deal>\d+):(?P<seq>\d+)"
                   r":(?P<action>accept|refuse|decline)"),
    CardSelect: (r"commerce:card:(?P<table>\d+):(?P<deal>\d+):(?P<seq>\d+)"
                 r":(?P<action>trade|barter|accept|swap|take_discard|draw_keep|offer)"),
}
#: the labels players know from the table message and the panel
LABELS = {
    "hand": "My hand", "back": "I'm back", "trade": "Trade", "barter": "Barter",
    "knock": "Knock", "swap": "Swap", "stand": "Stand", "take_widow": "Take the widow",
    "keep_hand": "Keep my hand", "pounce": "Pounce!", "buy_horse": "Buy a horse (1 point)",
    "decline_horse": "No horse", "take_discard": "Take discard", "draw": "Draw", "pass": "Pass",
    "offer": "Offer a trade", "accept": "Accept", "refuse": "Refuse (knock)",
    "decline": "Decline",
}


def template(item: type[discord.ui.DynamicItem]) -> re.Pattern[str]:  # type: ignore[type-arg]
    return item.__discord_ui_compiled_template__  # type: ignore[no-any-return]


def test_every_action_has_exactly_one_control_and_the_rest_are_the_bots_own():
    assert set(Action) <= set(CONTROLS)
    assert set(CONTROLS) - set(Action) == {"hand", "back", "hint"}
    assert len({str(k) for k in CONTROLS}) == len(CONTROLS)
    for name, control in CONTROLS.items():
        assert control.label, name
        assert bool(control.placeholder) == bool(control.prompt) == (name in SELECTS), name


def test_the_labels_are_the_ones_players_know():
    assert {name: CONTROLS[name].label for name in LABELS} == LABELS


def test_the_id_patterns_are_those_of_the_messages_already_sent():
    for item, old in OLD_PATTERNS.items():
        assert template(item).pattern == old
    assert set(TABLE_NAMES) == set(MOVES) | {"hand", "back"}
    assert set(SELECT_NAMES) == set(SELECTS)
    assert set(controls.ANSWER_NAMES) == set(ANSWERS)


@pytest.mark.parametrize("name", sorted({*CONTROLS, "nonsense", "hint", "draw_discard"}))
def test_an_id_matches_exactly_where_it_matched_before(name):
    ids = {PlayButton: f"commerce:play:12:3:{name}", AnswerButton: f"commerce:answer:12:3:7:{name}",
           CardSelect: f"commerce:card:12:3:7:{name}"}
    for item, custom_id in ids.items():
        assert (bool(template(item).fullmatch(custom_id))
                == bool(re.fullmatch(OLD_PATTERNS[item], custom_id))), (item, name)


async def test_ids_round_trip_and_the_buttons_show_the_tables_labels():
    for name in TABLE_NAMES:
        button = PlayButton(12, 3, name)
        assert button.custom_id == f"commerce:play:12:3:{name}"
        assert (button.item.label, button.item.style) == (CONTROLS[name].label, CONTROLS[name].style)
        match = template(PlayButton).fullmatch(button.custom_id)
        assert match is not None
        again = await PlayButton.from_custom_id(None, button.item, match)  # type: ignore[arg-type]
        assert (again.table_id, again.deal, again.action) == (12, 3, name)
    for name in controls.ANSWER_NAMES:
        answer = AnswerButton(12, 3, 7, name)
        assert answer.custom_id == f"commerce:answer:12:3:7:{name}"
        assert answer.item.label == CONTROLS[name].label
        match = template(AnswerButton).fullmatch(answer.custom_id)
        assert match is not None
        back = await AnswerButton.from_custom_id(None, answer.item, match)  # type: ignore[arg-type]
        assert (back.table_id, back.deal, back.seq, back.action) == (12, 3, 7, name)
    for name in SELECT_NAMES:
        select = CardSelect(12, 3, 7, name, [("K♦", "Kd")])
        assert select.custom_id == f"commerce:card:12:3:7:{name}"
        assert select.item.placeholder == CONTROLS[name].placeholder
        match = template(CardSelect).fullmatch(select.custom_id)
        assert match is not None
        rebuilt = await CardSelect.from_custom_id(None, select.item, match)  # type: ignore[arg-type]
        assert rebuilt.action == name


async def test_a_panel_button_carries_its_decision_in_its_id():
    for decision in (choices.Decision("knock"), choices.Decision("trade", 45, knock=True),
                     choices.Decision("swap", give=(45,), take=(0,)),
                     choices.Decision("offer", 45, target=2), choices.Decision("draw_discard")):
        control, value = choices.control(decision), choices.value(decision)
        button = PickButton(12, 3, 7, control, value)
        match = template(PickButton).fullmatch(button.custom_id)
        assert match is not None
        again = await PickButton.from_custom_id(None, button.item, match)  # type: ignore[arg-type]
        assert choices.decide(again.action, again.value) == decision


async def test_a_panel_sends_its_controls_bare_and_they_come_back_as_the_controls():
    """A panel sends the items its controls wrap (``PickButton.button``,
    ``CardSelect.menu``): Discord gets the very payload of the whole control, and a
    click on it comes back as that control (its id matches the template)."""
    for value in (None, "Kd!"):
        bare = PickButton.button(12, 3, 7, "trade", value, label="Trade K♦",
                                 style=discord.ButtonStyle.primary, row=2)
        whole = PickButton(12, 3, 7, "trade", value, label="Trade K♦",
                           style=discord.ButtonStyle.primary, row=2)
        assert bare.to_component_dict() == whole.to_component_dict()
        assert bare.row == whole.row == 2
        match = template(PickButton).fullmatch(bare.custom_id)
        assert match is not None
        again = await PickButton.from_custom_id(None, bare, match)  # type: ignore[arg-type]
        assert (again.table_id, again.deal, again.seq, again.action, again.value) == (
            12, 3, 7, "trade", value)
    for options in ([("K♦", "Kd"), ("2♣", "2c")], None):
        menu = CardSelect.menu(12, 3, 7, "barter", options, placeholder="Barter: a card")
        whole_menu = CardSelect(12, 3, 7, "barter", options, placeholder="Barter: a card")
        assert menu.to_component_dict() == whole_menu.to_component_dict()
        assert template(CardSelect).fullmatch(menu.custom_id) is not None


async def test_a_table_message_sends_its_controls_bare_in_a_stopped_view_made_once():
    """The table message's controls (``table_view``) and an offer's
    (``answers_view``) are the bare buttons of ``PlayButton`` and ``AnswerButton``:
    the very payloads of the whole controls, in a stopped view discord.py keeps
    nothing of; the same moment's view is made once, another moment's afresh."""
    from bot.engine.family import Controls
    from bot.ui.components import answers_view, table_view, view_of

    controls = Controls(moves=("trade", "barter", "knock"))
    view = table_view(12, 3, controls, seq=5)
    whole = view_of(PlayButton(12, 3, "hand"), *(PlayButton(12, 3, a) for a in controls.moves))
    assert view.to_components() == whole.to_components()
    assert view.is_finished() and not any(isinstance(c, discord.ui.DynamicItem)
                                          for c in view.children)
    assert table_view(12, 3, controls, seq=6) is view  # the moves do not depend on seq
    assert table_view(12, 4, controls, seq=6) is not view
    away = table_view(12, 3, controls, seq=5, away=True)
    assert [c.custom_id for c in away.children][-1] == "commerce:play:12:3:back"  # type: ignore[attr-defined]
    offer = Controls(answers=("accept", "refuse"))
    answered = table_view(12, 3, offer, seq=7)
    assert answered.to_components() == view_of(
        PlayButton(12, 3, "hand"), AnswerButton(12, 3, 7, "accept"),
        AnswerButton(12, 3, 7, "refuse")).to_components()
    assert table_view(12, 3, offer, seq=8) is not answered  # an answer belongs to its seq
    alone = answers_view(12, 3, 7, ("accept", "decline"))
    assert alone.is_finished()
    assert alone.to_components() == view_of(AnswerButton(12, 3, 7, "accept"),
                                            AnswerButton(12, 3, 7, "decline")).to_components()
    for child in (*view.children, *answered.children):
        item = PlayButton if child.custom_id.startswith("commerce:play:") else AnswerButton  # type: ignore[attr-defined]
        assert template(item).fullmatch(child.custom_id) is not None  # type: ignore[attr-defined]


def test_a_panel_button_says_what_the_table_says():
    rules = get_preset("oldway", {"pounce": True})
    deal = Game(rules, 3, 0).start_deal(shuffled_deck(random.Random(1)))
    obs = deal.observation(0)
    for name in BUTTONS:
        decision = choices.Decision(name)
        assert panel.pick_label(name, decision, obs, None, None) == CONTROLS[name].label  # type: ignore[arg-type]


def test_the_hand_names_each_action_as_its_control_is_labelled():
    rules = get_preset("jaques", {"direct_trading": True})
    deal = Game(rules, 3, 0).start_deal(shuffled_deck(random.Random(2)))
    seat = deal.to_act
    assert seat is not None
    obs = deal.observation(seat)
    assert render.action_names(obs) == [CONTROLS[a].label for a in obs.legal]
    answering = obs.__class__(**{**obs.__dict__, "legal": ("accept", "refuse")})
    assert render.action_names(answering) == ["Accept", "Decline"]

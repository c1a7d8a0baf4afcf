"""Cards named in text members read (bot/ui/cards.py): at every moment of games of
every family, in every language, the table and showdown embeds, each seat's panel
(its text, buttons and menu options), the hand picture's description, the moves'
confirmations and the rules name cards with the outline suits, never with the
black spade and club Discord draws all but invisibly on its dark theme, nor the
heart and diamond it draws as emoji; the engine's own labels stay as they were."""

from __future__ import annotations

import re

import pytest

from bot import i18n
from bot.engine import PRESETS, card_label, easy, hand_label
from bot.ui import cards, confirm, help, panel, pictures, render
from tests.ui.test_panel import TABLES, games
from tests.ui.test_words import embed_text

#: a filled suit: the black spade or club anywhere, a heart or diamond after a rank
INVISIBLE = re.compile(r"[♠♣]|(?<![\w])(?:10|[2-9JQKA])[♥♦]")
#: a card as members read it ("10♢")
READABLE = re.compile(r"(?<![\w])(?:10|[2-9JQKA])[♧♢♡♤]")


def test_a_card_is_named_with_its_outline_suit_and_the_engine_keeps_its_own():
    assert [cards.card_label(c) for c in (0, 1, 2, 3, 35, 51)] == \
        ["2♧", "2♢", "2♡", "2♤", "10♤", "A♤"]
    assert cards.hand_label([0, 51, 34]) == "A♤ 10♡ 2♧"
    assert card_label(51) == "A♠" and hand_label([0, 51]) == "A♠ 2♣"  # records, replays
    assert cards.outline_suits("give 7♠ · take K♥, A♦ or 2♣") == "give 7♤ · take K♡, A♢ or 2♧"


def component_labels(view) -> list[str]:
    """Every button label and menu option label of ``view``."""
    out = []
    for row in view.to_components():
        for c in row["components"]:
            out.append(c.get("label") or "")
            out += [o["label"] for o in c.get("options", [])]
    return out


def texts(live, deal) -> list[str]:
    """What members read of the table now: embeds, events, each seat's panel (with
    each of its menus in focus) and hand description."""
    out = [embed_text(render.table_embed(live))]
    out += [render.event_text(live, e) for e in deal.events]
    for seat in range(deal.n):
        obs = deal.observation(seat)
        out.append(render.hand_text(live, obs))
        if obs.hand:
            out.append(pictures.hand_alt(obs))
        for focus in [None, *(name for name, _ in panel.groups(deal, seat))]:
            shown = panel.build(live, seat, focus=focus)
            out.append(shown.content)
            if shown.view is not None:
                out += component_labels(shown.view)
    if deal.showdown is not None:
        out.append(embed_text(render.showdown_embed(live)))
    return out


@pytest.mark.parametrize("language", ["en", "de", "fr", "es"])
@pytest.mark.parametrize(("preset", "options"), TABLES, ids=[f"{p}{o}" for p, o in TABLES])
def test_no_text_names_a_card_with_a_suit_the_dark_theme_hides(preset, options, language,
                                                               monkeypatch):
    monkeypatch.setattr(panel, "hand_png", lambda obs: b"")  # the text is checked, not the picture
    named = 0
    with i18n.use(language):
        for live, deal in games(preset, options, 3, deals=1):
            said = texts(live, deal)
            if not deal.finished:
                seat = deal.to_act
                before = deal.observation(seat)
                deal.act(seat, easy.choose(before))
                said.append(confirm.confirmation(live, live.deal_number, before,
                                                 deal.operations[-1]))
            for text in said:
                assert not INVISIBLE.search(text), (preset, language, text)
                assert "**Give**" not in text, text  # no Give button: the panel never says to press it
                named += len(READABLE.findall(text))
    assert named > 20  # cards were named, in the readable form


@pytest.mark.parametrize("language", ["en", "de", "fr", "es"])
def test_the_rules_and_their_examples_name_cards_readably(language):
    with i18n.use(language):
        embeds = [*help.rules_embeds(), *(help.preset_embed(name, "") for name in sorted(PRESETS))]
        said = "\n".join(embed_text(e) for e in embeds)
    assert not INVISIBLE.search(said), said
    assert len(READABLE.findall(said)) > 20

"""A player's private panel: the hand picture, the hand as text (the picture's
fallback) and a button for every decision the player can make now.

"Trade K♡", "Barter K♡ with Ben", "Offer 7♤ to Ben", "Knock"...: an action
of at most ``GROUP_BUTTONS`` decisions is a button for each (``PickButton``,
its value encoded by ``bot.engine.choices``), so such a move is one click; an
action of more (Hoyle's trades with their "then knock" twins, the widow's
swaps, the discard pile's) is one menu (``CardSelect``) of its decisions, so
a panel shows a few clear controls rather than rows of look-alike buttons
(issue 23 §3). The *focused* action is a menu too: the one picked on the
table message (its Trade, Barter... buttons open the panel with that action's
menu on top). The decisions come from the deal's own interface
(``deal.controls(seat)``, ``deal.choices(seat, action)``) and only from what
the seat may see. Cards are listed in hand order (highest first, as the hand
is shown).

Built here, sent and kept up to date by ``bot.publishing.panels``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import discord

from .. import i18n
from ..engine import AnyDeal, Decision, Observation, choices
from ..engine.actions import BUTTONS, Action, kind_of
from ..i18n import _, deck
from ..service import LiveTable
from . import names, payments, render
from .cards import card_label, outline_suits
from .components import PanelControls, menu_payload, pick_payload
from .controls import CONTROLS
from .media import hand_file, hand_png
from .words import choice_words

#: rows of controls a message may carry, and buttons a row holds (Discord's limits)
ROWS = 5
PER_ROW = 5
#: an action with more decisions than this is a menu rather than a row of buttons
#: (three: one card of the hand each; a "then knock" twin of each makes it a menu)
GROUP_BUTTONS = 3

@dataclass(frozen=True)
class Panel:
    """One rendering of a panel.

    Attributes:
        content: the text (the hand as text, the status, a note, a prompt).
        file: the hand picture (``None`` when the seat holds no cards to show).
        view: the controls (``None``: none, e.g. once the deal is over).
        key: what the panel shows; equal keys render the same panel.
        picture: the hand picture's PNG bytes (``None``: no picture); a panel
            already showing these bytes is edited without uploading them again.
    """

    content: str
    file: discord.File | None
    view: discord.ui.View | None
    key: tuple[Any, ...]
    picture: bytes | None = None


def neighbour_name(live: LiveTable, deal: AnyDeal, seat: int) -> str | None:
    """The name of the seat ``seat`` barters with (trade-and-barter deals), else ``None``."""
    neighbour = deal.neighbour(seat)
    return None if neighbour is None else render.seat_label(live, neighbour)


def hand_order(decisions: Sequence[Decision]) -> list[Decision]:
    """``decisions`` with their cards in the order the hand is shown (highest
    first): a plain choice before its "then knock" twin, and an offer's seats in
    the order the deal gives them; the draw-discard choice last."""
    targets: dict[int | None, int] = {}
    for d in decisions:
        targets.setdefault(d.target, len(targets))

    def key(d: Decision) -> tuple[Any, ...]:
        cards = d.give or ((d.card,) if d.card is not None else ())
        return (d.knock, d.kind == Action.DRAW_DISCARD, targets[d.target], len(cards),
                tuple(-c for c in cards), tuple(-c for c in d.take))
    return sorted(decisions, key=key)


def picker_options(live: LiveTable, seat: int, action: str) -> list[tuple[str, str]]:
    """The ``(label, value)`` options of ``action``'s menu for ``seat``, in hand order."""
    deal = live.deal
    assert deal is not None
    pairs = [(outline_suits(choice_words(label)), value)
             for label, value in choices.options(deal, seat, action, seat_labeller(live))]
    order = {choices.value(d): i for i, d in enumerate(hand_order(
        [choices.decide(action, v) for _, v in pairs]))}
    return sorted(pairs, key=lambda p: order.get(p[1], len(order)))


def seat_labeller(live: LiveTable) -> Callable[[int], str]:
    """A seat as controls name it (a plain label: buttons and menus show no markdown)."""
    return lambda seat: render.seat_label(live, seat)


def groups(deal: AnyDeal, seat: int) -> list[tuple[str, list[Decision]]]:
    """The controls ``seat`` can use now, each with its decisions in hand order:
    an offer's answers first, then the moves, a drawn card's choices and the
    seat's private buttons (Pounce). Only what is legal for ``seat`` now."""
    controls = deal.controls(seat)
    out = []
    for name in dict.fromkeys((*controls.answers, *controls.moves, Action.DRAW_KEEP,
                               *controls.private)):
        decisions = deal.choices(seat, kind_of(name))
        if decisions:
            out.append((name, hand_order(decisions)))
    return out


def pick_label(name: str, decision: Decision, obs: Observation, live: LiveTable,
               neighbour: str | None) -> str:
    """What a panel button says for ``decision`` of control ``name``: a button's
    label (``controls.CONTROLS``), or the decision with its card ("Trade K♥")."""
    if name in BUTTONS:
        return _(CONTROLS[name].label)
    if name in PLAIN_PICKS:
        return plain_label(name, decision, neighbour)
    if name == Action.OFFER and decision.target is not None:
        card = card_label(decision.card) if decision.card is not None else ""
        return _("Offer {card} to {name}").format(card=card,
                                                   name=render.seat_label(live, decision.target))
    text = outline_suits(choice_words(choices.label(decision, obs, seat_labeller(live))))
    return text[:1].upper() + text[1:]


def plain_label(name: str, decision: Decision, neighbour: str | None) -> str:
    """``pick_label`` of a control of ``PLAIN_PICKS`` (Trade, Barter, Accept), whose
    words come from ``decision`` and the barter partner's name alone."""
    card = card_label(decision.card) if decision.card is not None else ""
    then_knock = _(" and knock") if decision.knock else ""
    if name == Action.TRADE:
        return f"{_(CONTROLS[name].label)} {card}{then_knock}"
    if name == Action.BARTER:
        partner = _(" with {neighbour}").format(neighbour=neighbour) if neighbour else ""
        return f"{_(CONTROLS[name].label)} {card}{partner}{then_knock}"
    return _("Give {card}").format(card=card)


#: the controls whose buttons' words come from the decision and the neighbour's
#: name alone (``pick_label``): their buttons are worded once (``_plain_pick``)
PLAIN_PICKS = frozenset({Action.TRADE, Action.BARTER, Action.ACCEPT})
#: decisions worded so kept (by decision, neighbour, language and deck): about 0.4 KB
#: each, some 430 KB per process at most (not per table)
PICKS_KEPT = 1024


@lru_cache(maxsize=PICKS_KEPT)
def _plain_pick(name: str, decision: Decision, neighbour: str | None, language: str,
                deck_name: str) -> tuple[str, str | None, str]:
    """The control, the value (``bot.engine.choices``) and the label of the button
    of ``decision`` of control ``name`` (one of ``PLAIN_PICKS``), in ``language``
    and ``deck_name``: the current ones, which the words are read from."""
    return choices.control(decision), choices.value(decision), plain_label(name, decision, neighbour)


def menu_placeholder(name: str, neighbour: str | None) -> str:
    """What the menu of action ``name`` says before a choice: the action and what
    to pick ("Trade: card to give the dealer"; a barter names the neighbour)."""
    what = _(CONTROLS[name].placeholder)
    if name == Action.BARTER and neighbour:
        return _("Barter: card to offer {neighbour} face down").format(neighbour=neighbour)[:150]
    if name == Action.DRAW_KEEP:  # its placeholder names the action already
        return what
    return _("{action}: {what}").format(action=_(CONTROLS[name].label), what=what)[:150]


def _style(name: str) -> discord.ButtonStyle:
    return CONTROLS[name].on_panel


def layout(grouped: list[tuple[str, list[Decision]]], focus: str | None) -> dict[str, bool]:
    """Which actions are menus (``True``) rather than rows of buttons: the focused
    one, any with more than ``GROUP_BUTTONS`` decisions, and then the largest
    until every control fits in ``ROWS`` rows (the one-decision buttons share
    the last row)."""
    menus = {name: name == focus or (name in choices.SELECTS and len(ds) > GROUP_BUTTONS)
             for name, ds in grouped}

    def rows() -> int:
        singles = sum(1 for name, _ in grouped if name not in choices.SELECTS)
        multi = sum(1 if menus[name] else -(-len(ds) // PER_ROW)
                    for name, ds in grouped if name in choices.SELECTS)
        return multi + -(-singles // PER_ROW)

    while rows() > ROWS:
        name = max((n for n, ds in grouped if n in choices.SELECTS and not menus[n]),
                   key=lambda n: len(dict(grouped)[n]))
        menus[name] = True
    return menus


def controls_view(live: LiveTable, seat: int, focus: str | None,
                  grouped: list[tuple[str, list[Decision]]] | None = None,
                  obs: Observation | None = None) -> discord.ui.View | None:
    """The panel's controls for ``seat`` now (``None`` when it has none);
    ``grouped``: ``groups(deal, seat)`` already made; ``obs``: the seat's
    observation ``deal.observation(seat)``, likewise."""
    deal = live.deal
    assert deal is not None
    if grouped is None:
        grouped = groups(deal, seat)
    if not grouped:
        return None
    menus = layout(grouped, focus)
    if obs is None:
        obs = deal.observation(seat)
    neighbour = neighbour_name(live, deal, seat)
    seq = len(deal.operations)
    table, number = live.id, live.deal_number
    rows: dict[int, list[dict[str, Any]]] = {}
    row = 0
    singles: list[dict[str, Any]] = []
    for name, decisions in sorted(grouped, key=lambda g: g[0] != focus):
        if name not in choices.SELECTS:
            singles.append(pick_payload(table, number, seq, name, label=pick_label(
                name, decisions[0], obs, live, neighbour), style=_style(name)))
            continue
        if menus[name]:
            rows[row] = [menu_payload(table, number, seq, name, picker_options(live, seat, name),
                                      menu_placeholder(name, neighbour))]
            row += 1
            continue
        for i, decision in enumerate(decisions):
            control, value, label = (
                _plain_pick(name, decision, neighbour, i18n.current(), deck.current())
                if name in PLAIN_PICKS else
                (choices.control(decision), choices.value(decision),
                 pick_label(name, decision, obs, live, neighbour)))
            rows.setdefault(row + i // PER_ROW, []).append(pick_payload(
                table, number, seq, control, value, label=label, style=_style(name)))
        row += -(-len(decisions) // PER_ROW)
    if live.row.coach and deal.to_act == seat and not deal.finished:
        hint = CONTROLS["hint"]
        singles.append(pick_payload(table, number, seq, "hint", label=_(hint.label),
                                    style=hint.on_panel))
    for i, item in enumerate(singles):
        rows.setdefault(row + i // PER_ROW, []).append(item)
    return PanelControls(rows)


def build(live: LiveTable, seat: int, *, focus: str | None = None, note: str = "",
          controls: bool = True) -> Panel:
    """The panel of ``seat`` at ``live`` now.

    Args:
        live: the table (its current deal).
        seat: the panel's owner.
        focus: a control to show as a menu on top, with its prompt (the table
            message's Trade, Barter... open the panel so); ignored when it is not
            the seat's to use now.
        note: a line above the hand, e.g. what the player's last move did.
        controls: ``False``: the hand only (a panel shown outside its table's
            channel, where its controls could not act).
    """
    deal = live.deal
    assert deal is not None
    grouped = groups(deal, seat)
    key = _key(live, seat, grouped, focus=focus, note=note, controls=controls)
    obs, focus = key[-1], key[4]
    lines = [outline_suits(note)] if note else []  # the coach's advice names cards as the engine does
    lines.append(render.hand_text(live, obs))
    if deal.finished and deal.showdown is not None:
        lines[-1] += " " + _("See the showdown in the channel.")
        lines.append(_("**Your result:** {result}").format(result=payments.tallies(deal)[seat].text()))
    if focus is not None:
        neighbour = neighbour_name(live, deal, seat)
        lines.append(_(CONTROLS[focus].prompt).format(
            neighbour=names.markdown_safe(neighbour) if neighbour else _("your neighbour")))
    view = controls_view(live, seat, focus, grouped, obs) if controls else None
    picture = hand_png(obs) if obs.hand or obs.blind or obs.drawn or obs.offered_card else None
    file = hand_file(obs, picture) if picture is not None else None
    return Panel("\n".join(lines), file, view, key, picture)


def key_of(live: LiveTable, seat: int, *, focus: str | None = None, note: str = "",
           controls: bool = True) -> tuple[Any, ...]:
    """What ``build`` would show for these arguments (its ``Panel.key``), without
    building it: two panels with equal keys look the same. Its last item is the
    seat's observation, its fifth the focus ``build`` keeps (``None`` when the
    menu asked for is not the seat's to use now), its last but one the language and
    the one before the deck (``bot.i18n.deck``) it is worded and drawn in."""
    return _key(live, seat, None, focus=focus, note=note, controls=controls)


def _key(live: LiveTable, seat: int, grouped: list[tuple[str, list[Decision]]] | None, *,
         focus: str | None, note: str, controls: bool) -> tuple[Any, ...]:
    """``key_of``, ``grouped`` (``groups(deal, seat)``) already made (``None``:
    made here, only when a focus is asked for: whether it is the seat's to use)."""
    deal = live.deal
    assert deal is not None
    obs = deal.observation(seat)
    if focus is not None:
        legal = {name for name, _ in (groups(deal, seat) if grouped is None else grouped)}
        focus = focus if focus in legal and focus in choices.SELECTS else None
    return (live.id, live.deal_number, len(deal.operations), deal.finished, focus, note,
            controls, deck.current(), i18n.current(), obs)


def over(deal_number: int, current: int | None) -> str:
    """What a panel of an earlier deal says once it is clicked."""
    then = (" " + _("Press **My hand** for your cards in deal {number}.").format(number=current)
            if current else "")
    return _("Deal {number} is over.").format(number=deal_number) + then

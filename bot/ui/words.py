"""Words the bot shows players: numbers that agree with their nouns, lists of
names, signed amounts, and the one table that says in plain words why points,
chips or lives moved in a deal.

A leaf module (it imports nothing of the bot but ``bot.i18n``), so the embeds of ``render``, the
payments of ``payments`` and the pictures can all share it.
"""

from __future__ import annotations

import re

from .. import i18n
from ..i18n import N_, Nn_, _, ngettext

#: nouns whose plural is not the noun and an s (and verbs in the third person)
IRREGULAR = {"life": "lives", "pays": "pay", "takes": "take", "loses": "lose", "is": "are",
             "was": "were", "has": "have"}

#: why points or chips moved in a deal (``Movement.reason``, docs/RULES.md §1.6,
#: §2.1–§2.7), and why lives changed (``life`` and ``horse_life``, §2.6): the
#: noun a player reads, in the singular (the plural comes from ``plural``)
REASONS = {
    "ante": "ante",
    "stake": "stake",
    "fee": "trade fee",
    "pool": "pool",
    "penalty": "dealer's penalty",
    "horse": "horse",
    "sweep": "sweep",
    "knock": "knock chip",
    "lowest": "lowest hand",
    "dead_knock": "dead-knock fine",
    "pot": "pot",
    "life": "weakest hand",
    "horse_life": "horse",
}

#: reasons that happen once a deal, however many movements make them up
ONCE = frozenset({"pool", "penalty", "sweep", "horse", "lowest", "dead_knock", "life",
                  "horse_life"})

#: the counted nouns ``plural`` words in every language of the catalogs ("{count} point")
COUNTED = {
    "point": Nn_("{count} point", "{count} points"),
    "chip": Nn_("{count} chip", "{count} chips"),
    "life": Nn_("{count} life", "{count} lives"),
    "card": Nn_("{count} card", "{count} cards"),
    "deal": Nn_("{count} deal", "{count} deals"),
    "round": Nn_("{count} round", "{count} rounds"),
    "turn": Nn_("{count} turn", "{count} turns"),
    "second": Nn_("{count} second", "{count} seconds"),
    "day": Nn_("{count} day", "{count} days"),
    "player": Nn_("{count} player", "{count} players"),
    "other player": Nn_("{count} other player", "{count} other players"),
    "barter": Nn_("{count} barter", "{count} barters"),
    "trade": Nn_("{count} trade", "{count} trades"),
}
#: the words of ``REASONS`` and ``POT_NAMES`` alone, singular and plural
WORDS = {
    "point": Nn_("point", "points"),
    "chip": Nn_("chip", "chips"),
    "life": Nn_("life", "lives"),
    "ante": Nn_("ante", "antes"),
    "stake": Nn_("stake", "stakes"),
    "trade fee": Nn_("trade fee", "trade fees"),
    "pool": Nn_("pool", "pools"),
    "dealer's penalty": Nn_("dealer's penalty", "dealer's penalties"),
    "horse": Nn_("horse", "horses"),
    "sweep": Nn_("sweep", "sweeps"),
    "knock chip": Nn_("knock chip", "knock chips"),
    "lowest hand": Nn_("lowest hand", "lowest hands"),
    "dead-knock fine": Nn_("dead-knock fine", "dead-knock fines"),
    "pot": Nn_("pot", "pots"),
    "weakest hand": Nn_("weakest hand", "weakest hands"),
    "tricon pot": Nn_("tricon pot", "tricon pots"),
    "sequence pot": Nn_("sequence pot", "sequence pots"),
    "pair pot": Nn_("pair pot", "pair pots"),
}

#: the three-stake pots by number (docs/RULES.md §2.7)
POT_NAMES = ("tricon pot", "sequence pot", "pair pot")


def plural(count: int, noun: str, *, number: bool = True) -> str:
    """``count`` and ``noun``, singular for exactly one ("1 player", "2 players",
    "0 points"); a verb in the third person agrees too (``plural(2, "pays",
    number=False)`` is ``"pay"``). ``number=False``: the word alone. In another
    language than English a noun of ``COUNTED`` (with its number) or of ``WORDS``
    (alone) takes that language's form for ``count`` (``i18n.ngettext``)."""
    forms = COUNTED.get(noun) if number else WORDS.get(noun)
    if forms is not None and i18n.current() != i18n.DEFAULT:
        text = ngettext(forms[0], forms[1], count)
        return text.format(count=count) if number else text
    if count == 1:
        word = noun
    elif noun in IRREGULAR:
        word = IRREGULAR[noun]
    else:
        word = noun + "s"
    return f"{count} {word}" if number else word


def names_list(items: list[str]) -> str:
    """``["Ann", "Ben", "Cat"]`` as ``"Ann, Ben and Cat"``."""
    if len(items) <= 1:
        return "".join(items)
    return _("{names} and {last}").format(names=", ".join(items[:-1]), last=items[-1])


def signed(value: int) -> str:
    """A change as players read it: ``+3``, ``−2`` (a true minus sign), ``±0``."""
    if value > 0:
        return f"+{value}"
    return f"\u2212{-value}" if value < 0 else "\u00b10"


def amount(value: int) -> str:
    """An item of a change: what came in without a sign (``6``), what went out
    with a true minus (``−1``)."""
    return str(value) if value >= 0 else f"\u2212{-value}"


def reason_words(reason: str, count: int = 1, *, pot: int = 0, pots: int = 1,
                 chips: bool = False) -> str:
    """Why an amount moved, in plain words: ``reason`` is a ``Movement.reason``
    (or ``life`` / ``horse_life`` for lives), ``count`` how many such movements
    the amount sums (``"trade fee"``, ``"trade fees"``). ``pot``: the pot of a
    three-stake win (one of ``pots``); ``chips``: the game is played with chips
    (docs/RULES.md §2.7), where the end-of-game sweep is "the pot".

    Raises:
        KeyError: ``reason`` is not one the engine records.
    """
    noun = REASONS[reason]
    if reason == "pot" and pots > 1:
        noun = POT_NAMES[pot] if pot < len(POT_NAMES) else f"pot {pot + 1}"
    elif reason == "sweep" and chips:
        noun = "pot"
    elif reason in ONCE:
        count = 1  # one pool, one penalty, one sweep: however many movements make it
    return plural(count, noun, number=False)


#: a hand's name as the engine gives it (``bot.engine.describe``), by pattern, and the
#: catalog's template for it ("tricon of kings", "point 21 (3 cards)")
_HANDS = (
    (re.compile(r"four (\w+)"), N_("four {ranks}")),
    (re.compile(r"tricon of (\w+)"), N_("tricon {ranks}")),
    (re.compile(r"pair of (\w+)"), N_("pair {ranks}")),
    (re.compile(r"sequence to (\w+)"), N_("sequence to {rank}")),
    (re.compile(r"flush, (\w+) high"), N_("flush, {rank} high")),
    (re.compile(r"flush (\d+)"), N_("flush {total}")),
    (re.compile(r"point (\d+) \(3 cards\)"), N_("point {total} (3 cards)")),
    (re.compile(r"point (\d+)"), N_("point {total}")),
    (re.compile(r"(\w+) high"), N_("{rank} high")),
    (re.compile(r"nothing"), N_("nothing")),
)
#: the engine's ranks in the plural (``RANK_NAMES``) as the hand names above take them
RANKS = {"2s": N_("of 2s"), "3s": N_("of 3s"), "4s": N_("of 4s"), "5s": N_("of 5s"),
         "6s": N_("of 6s"), "7s": N_("of 7s"), "8s": N_("of 8s"), "9s": N_("of 9s"),
         "10s": N_("of 10s"), "jacks": N_("of jacks"), "queens": N_("of queens"),
         "kings": N_("of kings"), "aces": N_("of aces")}


def hand_words(description: str) -> str:
    """A hand's name (``bot.engine.describe``'s English: ``"tricon of 7s"``) in the
    current language; English, and a name of no known pattern, as it is."""
    if i18n.current() == i18n.DEFAULT:
        return description
    for pattern, template in _HANDS:
        found = pattern.fullmatch(description)
        if found is None:
            continue
        value = found[1] if found.groups() else ""
        ranks = _(RANKS[value]) if value in RANKS else value
        return _(template).format(ranks=ranks, rank=value, total=value)
    return description


#: a menu option or panel button as the engine words it (``bot.engine.choices.label``),
#: by pattern, and the catalog's template for it ("give 7♠ · take K♥")
_CHOICES = (
    (re.compile(r"give (.+) · take (.+)"), N_("give {a} · take {b}")),
    (re.compile(r"throw the drawn card away"), N_("throw the drawn card away")),
    (re.compile(r"throw (.+) away"), N_("throw {a} away")),
    (re.compile(r"lay (.+), take (.+)"), N_("lay {a}, take {b}")),
    (re.compile(r"keep (.+), lay (.+)"), N_("keep {a}, lay {b}")),
    (re.compile(r"offer (.+)…"), N_("offer {a}…")),
    (re.compile(r"(.+), then knock"), N_("{a}, then knock")),
    (re.compile(r"(\S+) to (.+)"), N_("{a} to {b}")),
)


def choice_words(label: str) -> str:
    """A decision's label (``bot.engine.choices.label``'s English: ``"give 7♠ · take
    K♥"``) in the current language; English, a card alone and a label of no known
    pattern as they are."""
    if i18n.current() == i18n.DEFAULT:
        return label
    for pattern, template in _CHOICES:
        found = pattern.fullmatch(label)
        if found is not None:
            parts = dict(zip("ab", found.groups(), strict=False))
            return _(template).format(**parts)
    return label

"""Words the bot shows players: numbers that agree with their nouns, lists of
names, signed amounts, and the one table that says in plain words why points,
chips or lives moved in a deal.

A leaf module (it imports nothing of the bot), so the embeds of ``render``, the
payments of ``payments`` and the pictures can all share it.
"""

from __future__ import annotations

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

#: the three-stake pots by number (docs/RULES.md §2.7)
POT_NAMES = ("tricon pot", "sequence pot", "pair pot")


def plural(count: int, noun: str, *, number: bool = True) -> str:
    """``count`` and ``noun``, singular for exactly one ("1 player", "2 players",
    "0 points"); a verb in the third person agrees too (``plural(2, "pays",
    number=False)`` is ``"pay"``). ``number=False``: the word alone."""
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
    return ", ".join(items[:-1]) + " and " + items[-1]


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

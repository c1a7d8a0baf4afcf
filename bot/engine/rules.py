"""Rule options as data and the named presets (RULES.md §1, §2).

A preset is a frozen ``Rules`` value; every difference between presets is a
field, never a copied game loop. ``Rules.with_options`` applies the table
options a preset allows (``direction``, ``deals_per_player``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .hands import Ranking

Direction = Literal["clockwise", "anticlockwise"]
TradedCard = Literal["waste", "under_stock", "face_up"]
NoHand = Literal["dealer", "carry"]
DealerPenalty = Literal["same_category", "any_combination"]


#: the fields a table may set through ``Rules.with_options``
OPTION_FIELDS = ("direction", "deals_per_player")


class RulesError(ValueError):
    """An unknown preset or an option the preset does not allow."""


@dataclass(frozen=True)
class Rules:
    """One Commerce rule system of the trade-and-barter family.

    Attributes:
        name: preset name (``"foster"``).
        summary: one line for people, in our own words.
        source: where the rules come from (``"seed 000; RULES.md §1"``).
        min_players, max_players: seats allowed at a table.
        direction: turn, deal, barter and priority direction (RULES.md §2).
        ante: points each seat pays into the pool at the start of a deal.
        trade_fee: points a trade costs (paid to the dealer; the dealer pays none).
        barter_refusal: the neighbour may refuse a barter by knocking.
        traded_card: where a traded card goes: concealed ``waste``,
            ``under_stock`` (the stock never runs out) or ``face_up`` (shown).
        knock_after_exchange: a trade or barter may end with the actor knocking.
        no_hand: when nobody holds anything: ``dealer`` wins by priority, or the
            pool ``carry``-ies over to the next deal (never on the final deal).
        dealer_penalty: when a losing dealer pays every other seat:
            ``same_category`` as the winner, or ``any_combination`` held.
        ranking: hand ranking scheme (``classic`` or ``more``).
        deals_per_player: deals in a game, per seat.
    """

    name: str
    summary: str
    source: str
    min_players: int = 3
    max_players: int = 12
    direction: Direction = "clockwise"
    ante: int = 1
    trade_fee: int = 1
    barter_refusal: bool = True
    traded_card: TradedCard = "waste"
    knock_after_exchange: bool = False
    no_hand: NoHand = "dealer"
    dealer_penalty: DealerPenalty = "same_category"
    ranking: Ranking = "classic"
    deals_per_player: int = 1

    @property
    def step(self) -> int:
        """+1 for clockwise (to the left), -1 for anticlockwise."""
        return 1 if self.direction == "clockwise" else -1

    def with_options(self, options: dict[str, object] | None) -> Rules:
        """This preset with table options applied.

        Args:
            options: ``{"direction": "clockwise"|"anticlockwise",
                "deals_per_player": 1..5}``; empty or None keeps the preset.

        Raises:
            RulesError: an unknown option or a value out of range.
        """
        if not options:
            return self
        changes: dict[str, object] = {}
        for key, value in options.items():
            if key == "direction":
                if value not in ("clockwise", "anticlockwise"):
                    raise RulesError("direction must be clockwise or anticlockwise")
                changes[key] = value
            elif key == "deals_per_player":
                if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 5:
                    raise RulesError("deals_per_player must be a whole number from 1 to 5")
                changes[key] = value
            else:
                raise RulesError(f"unknown option {key!r}")
        return replace(self, **changes)  # type: ignore[arg-type]


FOSTER = Rules(
    name="foster",
    summary="Foster's game: trade with the dealer for a point, or swap blind with your "
    "neighbour; knock when happy. One deal per player.",
    source="seed 000; RULES.md §1",
)

PRESETS: dict[str, Rules] = {
    "foster": FOSTER,
    "hoyle": replace(
        FOSTER,
        name="hoyle",
        summary="Hoyle's new way: barters must be accepted, traded cards go under the "
        "stock, you may knock after your exchange, an empty deal carries the pool.",
        source="seed 001; RULES.md §2 hoyle",
        barter_refusal=False,
        traded_card="under_stock",
        knock_after_exchange=True,
        no_hand="carry",
    ),
    "parlett": replace(
        FOSTER,
        name="parlett",
        summary="Parlett's Trade or Barter: play runs to the right, traded cards are "
        "shown, and a losing dealer holding anything pays everyone.",
        source="seed 002 'Trade or Barter'; RULES.md §2 parlett",
        direction="anticlockwise",
        traded_card="face_up",
        dealer_penalty="any_combination",
    ),
    "foster-more": replace(
        FOSTER,
        name="foster-more",
        summary="Foster with more hands: a flush and a pair rank between sequence and point.",
        source="seed 001 variant 'More hands'; RULES.md §2 foster-more",
        ranking="more",
    ),
}


def get_preset(name: str, options: dict[str, object] | None = None) -> Rules:
    """The preset called ``name`` with ``options`` applied.

    Raises:
        RulesError: no such preset, or a bad option.
    """
    try:
        base = PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown rules preset {name!r}") from None
    return base.with_options(options)

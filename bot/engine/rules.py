"""Rule options as data and the named presets (docs/RULES.md §1, §2).

A preset is a frozen ``Rules`` value; every difference between presets is a
field, never a copied game loop. ``Rules.family`` picks the deal class:

- ``trade`` — trade-and-barter (``TradeDeal``): foster, hoyle, parlett, foster-more;
- ``widow`` — widow exchange (``WidowDeal``): widow, oldway;
- ``discard`` — stock and discard pile (``DiscardDeal``): jaques.

``Rules.with_options`` applies the table options a preset allows (its
``table_options``) and what they imply (``implied_options``); ``OPTIONS``, a
table of ``Option``, is the one source of every option's bounds and text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from .hands import Ranking

Direction = Literal["clockwise", "anticlockwise"]
Family = Literal["trade", "widow", "discard"]
TradedCard = Literal["waste", "under_stock", "face_up"]
NoHand = Literal["dealer", "carry"]
DealerPenalty = Literal["same_category", "any_combination", "none"]
WidowEnd = Literal["two_knocks", "all_stand"]
GameEnd = Literal["deals", "lives", "chips"]


class RulesError(ValueError):
    """An unknown preset or an option the preset does not allow."""


@dataclass(frozen=True)
class Option:
    """One table option (docs/RULES.md §2.8): the one source of its bounds and of
    the text players read (the ``/commerce new`` options come from it).

    Attributes:
        name: the option's name (a ``Rules`` field).
        kind: ``whole`` (a whole number from ``low`` to ``high``), ``flag``
            (true/false) or ``choice`` (one of ``values``).
        text: what the option does, for players (at most 100 characters with
            its range: ``description``).
        low, high: the bounds of a ``whole`` option.
        values: ``(value, label)`` of each value of a ``choice`` option.
        nullable: ``None`` is allowed too (no limit: ``deals``, ``fixed_rounds``).
    """

    name: str
    kind: Literal["whole", "flag", "choice"]
    text: str
    low: int = 0
    high: int = 0
    values: tuple[tuple[str, str], ...] = ()
    nullable: bool = False

    @property
    def description(self) -> str:
        """``text``, with the range of a whole number: ``"... (1-5)"``."""
        return f"{self.text} ({self.low}-{self.high})" if self.kind == "whole" else self.text

    def check(self, value: object) -> object:
        """``value`` when this option allows it.

        Raises:
            RulesError: a value out of range or of the wrong kind, said plainly.
        """
        if value is None and self.nullable:
            return None
        if self.kind == "choice":
            names = [v for v, _ in self.values]
            if value not in names:
                raise RulesError(f"{self.name} must be {' or '.join(names)}")
            return value
        if self.kind == "whole":
            if (not isinstance(value, int) or isinstance(value, bool)
                    or not self.low <= value <= self.high):
                raise RulesError(
                    f"{self.name} must be a whole number from {self.low} to {self.high}")
            return value
        if not isinstance(value, bool):
            raise RulesError(f"{self.name} must be true or false")
        return value


#: every table option (docs/RULES.md §2.8), by name; a preset allows some of them
#: (``Rules.table_options``)
OPTIONS: dict[str, Option] = {option.name: option for option in (
    Option("direction", "choice", "Which way play, the deal and barters go",
           values=(("clockwise", "clockwise (to the left)"),
                   ("anticlockwise", "anticlockwise (to the right)"))),
    Option("deals_per_player", "whole", "Deals in the game for each player", 1, 5),
    Option("deals", "whole", "Deals in the game, instead of deals per player", 1, 60,
           nullable=True),
    Option("pounce", "flag",
           "oldway: a tricon may grab the fourth card of its rank from the middle"),
    Option("chips", "whole", "jaques: each player's starting chip stack", 2, 1000),
    Option("stake", "whole", "jaques: chips each player pays into the pot once, fewer than chips",
           0, 999),
    Option("fixed_rounds", "whole", "jaques: play this many deals, then the most chips wins",
           1, 200, nullable=True),
    Option("direct_trading", "flag",
           "jaques: on your turn you may offer a card to another player"),
    Option("open_trading", "flag", "jaques: such offers also outside your turn"),
    Option("dead_knock", "flag", "jaques: a knocker without the best hand pays 2"),
    Option("three_stake", "flag", "jaques: three pots (tricon, sequence/flush, pair/high card)"),
)}

#: option names shared by the trade-and-barter and widow presets
_DEAL_COUNT = ("direction", "deals_per_player", "deals")

#: every option name (kept for callers that list the options a record may carry)
OPTION_FIELDS = tuple(OPTIONS)


def implied_options(options: Mapping[str, object] | None) -> dict[str, object]:
    """A new dict of ``options`` with the options they imply: open trading is a
    kind of direct trading (docs/RULES.md §2.7), so ``open_trading`` true sets
    ``direct_trading`` true. The caller's mapping is never changed."""
    out = dict(options or {})
    if out.get("open_trading") is True:
        out["direct_trading"] = True
    return out


@dataclass(frozen=True)
class Rules:
    """One Commerce rule system. Each field is a rule option, with its source.

    Common:
        name: preset name (``"foster"``).
        summary: one line for people, in our own words.
        source: the section of our rules that describes it (``"docs/RULES.md §2.1"``).
        family: ``trade`` | ``widow`` | ``discard`` — which deal class plays it.
        table_options: the option names a table may set (``with_options``).
        min_players, max_players: seats allowed at a table (docs/RULES.md §1.2; jaques §2.7).
        direction: turn, deal, barter and priority direction (docs/RULES.md §2.8).
        ante: points each seat pays into the pool at the start of every deal
            (§2.1 1; §2.6 0; §2.7 three-stake: 1 into each pot).
        ranking: hand ranking scheme: ``classic``, ``more`` or
            ``jaques`` (docs/RULES.md §1.4).
        deals_per_player: deals in a game, per seat (§1 one each).
        deals: the number of deals as a table option (§2.2, §2.8); ``None`` uses
            ``deals_per_player``.
        stake: points/chips each seat pays into the pool once, at the start of the
            game (§2.6: 3; §2.7: the agreed stake, default 1).

    Trade-and-barter family (docs/RULES.md §2.1–§2.4):
        trade_fee: points a trade costs (paid to the dealer; the dealer pays none).
        barter_refusal: the neighbour may refuse a barter by knocking (hoyle: no).
        traded_card: where a traded card goes: concealed ``waste``,
            ``under_stock`` (hoyle: the stock never runs out) or ``face_up`` (parlett).
        knock_after_exchange: a trade or barter may end with the actor knocking (hoyle).
        no_hand: when nobody holds anything: ``dealer`` wins by priority, or the
            pool ``carry``-ies over to the next deal (hoyle; never on the final deal).
        dealer_penalty: when a losing dealer pays every other seat:
            ``same_category`` as the winner (§1), ``any_combination`` held
            (parlett), or ``none`` (widow family, jaques).

    Widow family (docs/RULES.md §2.5, §2.6):
        dealer_widow: the dealer may first exchange the whole hand for the widow.
        blind_widow_choice: the dealer chooses before seeing the hand (oldway).
        widow_taker_stands: a dealer who took the widow keeps it: no more
            changes (docs/RULES.md §2.6).
        swap_max: cards a turn may exchange with the widow (widow exactly 1;
            oldway 1 to 3, the same number each way).
        widow_end: ``two_knocks`` (widow: play stops once two players knocked) or
            ``all_stand`` (oldway: the deal ends when every player has stood).
        lives: lives per seat at the start of the game (oldway 3; 0: no lives).
        best_takes: what the best hand takes from the pool (oldway 1; ``None``:
            the whole pool).
        horse: the first player to lose the last life may buy one more (oldway).
        horse_price: points the horse costs, paid into the pool (oldway 1).
        pounce: a tricon may take the fourth card from the middle (oldway option,
            docs/RULES.md §2.6).

    Discard family (docs/RULES.md §2.7):
        chips: starting chip stack (table option, default 10); 0 means no chips
            (a ledger of points that may go negative).
        knock_fee: chips a knock costs, paid into the pot (jaques 1).
        lowest_pays: chips each tied lowest hand pays into the pot (jaques 1).
        dead_knock: a knocker without the best hand pays ``dead_knock_fine``
            instead of any lowest-hand payment (option).
        dead_knock_fine: 2.
        fixed_rounds: play this many deals, then the most chips takes the pot
            (option; ``None`` plays until one player has chips).
        direct_trading: on your turn, offer one card to another seat, who may
            accept (giving a card back) or refuse; either way the turn is used.
        open_trading: offers are allowed outside your turn too (implies
            ``direct_trading``).
        three_stake: three pots (best tricon; best sequence or flush; best pair
            or high card), 1 chip per player per deal into each; no starting stake.
            Knock, lowest-hand and dead-knock chips go into the first (tricon)
            pot; the pots are awarded after those payments; a tie in a deal
            shares that pot. At the game's end whoever takes the pot takes all
            three together: a tie shares their total, the odd chips to the
            earliest tied seat from the dealer's left.

    Rulings where the sources are silent (docs/RULES.md §4 lists them all):
        - jaques ``stake`` is paid once, at the start of the game (a starting
          stake); only ``three_stake`` pays every deal.
        - a jaques payment never exceeds the payer's chips; a seat without a
          chip cannot knock.
        - oldway ``pounce`` is possible from the end of the dealer's choice until
          play ends, never by a seat that has stood.
    """

    name: str
    summary: str
    source: str
    family: Family = "trade"
    table_options: tuple[str, ...] = _DEAL_COUNT
    min_players: int = 3
    max_players: int = 12
    direction: Direction = "clockwise"
    ante: int = 1
    ranking: Ranking = "classic"
    deals_per_player: int = 1
    deals: int | None = None
    stake: int = 0
    # trade-and-barter
    trade_fee: int = 1
    barter_refusal: bool = True
    traded_card: TradedCard = "waste"
    knock_after_exchange: bool = False
    no_hand: NoHand = "dealer"
    dealer_penalty: DealerPenalty = "same_category"
    # widow
    dealer_widow: bool = False
    blind_widow_choice: bool = False
    widow_taker_stands: bool = False
    swap_max: int = 1
    widow_end: WidowEnd = "two_knocks"
    lives: int = 0
    best_takes: int | None = None
    horse: bool = False
    horse_price: int = 1
    pounce: bool = False
    # discard
    chips: int = 0
    knock_fee: int = 0
    lowest_pays: int = 0
    dead_knock: bool = False
    dead_knock_fine: int = 2
    fixed_rounds: int | None = None
    direct_trading: bool = False
    open_trading: bool = False
    three_stake: bool = False

    @property
    def step(self) -> int:
        """+1 for clockwise (to the left), -1 for anticlockwise."""
        return 1 if self.direction == "clockwise" else -1

    @property
    def game_end(self) -> GameEnd:
        """How the game ends: after a number of ``deals``; when one player has
        ``lives`` left (oldway sweep); when one player has ``chips`` left or the
        fixed rounds are played (jaques)."""
        if self.lives:
            return "lives"
        if self.chips:
            return "chips"
        return "deals"

    @property
    def n_pots(self) -> int:
        """Number of pots: 3 with ``three_stake``, else 1 (the pool)."""
        return 3 if self.three_stake else 1

    def deals_in_game(self, n_seats: int) -> int | None:
        """Deals in a game of ``n_seats``, or ``None`` when the game ends otherwise
        (oldway; jaques without fixed rounds)."""
        if self.game_end == "lives":
            return None
        if self.game_end == "chips":
            return self.fixed_rounds
        return self.deals if self.deals is not None else n_seats * self.deals_per_player

    def with_options(self, options: Mapping[str, object] | None) -> Rules:
        """This preset with table options applied (docs/RULES.md §2.8), and what
        they imply (``implied_options``); ``options`` itself is never changed.

        Args:
            options: a subset of ``table_options`` (see ``OPTIONS``); empty or
                None keeps the preset.

        Raises:
            RulesError: an option this preset does not have, or a bad value.
        """
        if not options:
            return self
        changes: dict[str, object] = {}
        for key, value in implied_options(options).items():
            if key not in self.table_options:
                raise RulesError(f"unknown option {key!r} for {self.name}")
            changes[key] = OPTIONS[key].check(value)
        # each value was checked against its option (OPTIONS[key].check) just above
        rules = replace(self, **changes)  # type: ignore[arg-type]
        if rules.open_trading and not rules.direct_trading:
            raise RulesError("open_trading needs direct_trading")
        if rules.three_stake:
            if "stake" in options:
                raise RulesError("stake does not apply with three_stake (1 chip per pot per deal)")
            rules = replace(rules, stake=0, ante=1)
        if rules.chips and not 0 <= rules.stake < rules.chips:
            raise RulesError("stake must be smaller than chips")
        return rules


FOSTER = Rules(
    name="foster",
    summary="Foster's game: trade with the dealer for a point, or swap blind with your "
    "neighbour; knock when happy. One deal per player.",
    source="docs/RULES.md §2.1",
)

PRESETS: dict[str, Rules] = {
    "foster": FOSTER,
    "hoyle": replace(
        FOSTER,
        name="hoyle",
        summary="Hoyle's new way: barters must be accepted, traded cards go under the "
        "stock, you may knock after your exchange, an empty deal carries the pool.",
        source="docs/RULES.md §2.2",
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
        source="docs/RULES.md §2.3",
        direction="anticlockwise",
        traded_card="face_up",
        dealer_penalty="any_combination",
    ),
    "foster-more": replace(
        FOSTER,
        name="foster-more",
        summary="Foster with more hands: a flush and a pair rank between sequence and point.",
        source="docs/RULES.md §2.4",
        ranking="more",
    ),
    "widow": replace(
        FOSTER,
        name="widow",
        summary="Three cards lie face up as a widow: the dealer may take all three, then "
        "each turn swap one card with it or knock; two knocks end the deal.",
        source="docs/RULES.md §2.5",
        family="widow",
        trade_fee=0,
        dealer_penalty="none",
        dealer_widow=True,
        swap_max=1,
        widow_end="two_knocks",
    ),
    "oldway": replace(
        FOSTER,
        name="oldway",
        summary="The old way: three lives each and a shared pool; swap cards with the middle "
        "or stand; the worst hand loses a life, the last player alive sweeps the pool.",
        source="docs/RULES.md §2.6",
        family="widow",
        table_options=("direction", "pounce"),
        ante=0,
        stake=3,
        trade_fee=0,
        dealer_penalty="none",
        dealer_widow=True,
        blind_widow_choice=True,
        widow_taker_stands=True,
        swap_max=3,
        widow_end="all_stand",
        lives=3,
        best_takes=1,
        horse=True,
        horse_price=1,
    ),
    "jaques": replace(
        FOSTER,
        name="jaques",
        summary="Jaques' Commerce: chip stacks, a stock and a discard pile; swap, draw, pass "
        "or knock for a final round; the lowest hand pays the pot.",
        source="docs/RULES.md §2.7",
        family="discard",
        table_options=(
            "direction", "chips", "stake", "fixed_rounds", "direct_trading", "open_trading",
            "dead_knock", "three_stake",
        ),
        max_players=10,
        ante=0,
        ranking="jaques",
        stake=1,
        trade_fee=0,
        dealer_penalty="none",
        chips=10,
        knock_fee=1,
        lowest_pays=1,
    ),
}


def get_preset(name: str, options: Mapping[str, object] | None = None) -> Rules:
    """The preset called ``name`` with ``options`` applied (``Rules.with_options``;
    ``options`` is never changed).

    Raises:
        RulesError: no such preset, or a bad option.
    """
    try:
        base = PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown rules preset {name!r}") from None
    return base.with_options(options)

"""A whole game: deals in turn, the ledger, game-level state (pots, lives,
chips), the winners, and game records (docs/RULES.md §1 "Game length", §2, §3
"Game records"; the action objects of every family are in docs/RECORDS.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import Card, card_code, shuffled_deck
from .discard import DiscardDeal
from .fairness import Attempt, ShuffleLog, Shuffler, chain_entries, chain_heads
from .fairness_v1 import DealProof, deck_order
from .family import DealBase, IllegalAction, Standing
from .hands import Category
from .operations import Operation
from .record import (
    FORMAT,
    RECORD_KEYS,
    RecordError,
    _attempt,
    _card,
    _proof,
    _shuffle_of,
    operations_of,
    record_actions,
    record_format,
)
from .rules import PRESETS, Rules, RulesError, get_preset
from .trade import TradeDeal

__all__ = ["AnyDeal", "Game", "GameError", "RecordError", "category_name", "record_actions",
           "replay"]
from .seating import next_in
from .widow import WidowDeal


class GameError(ValueError):
    """A game-level step that is not allowed now (e.g. a deal while one is open)."""


#: a deal of any family: the abstract interface every family implements
AnyDeal = DealBase


class Game:
    """A game: deals in turn, the ledger, game-level state, and the winners.

    How a game ends (``Rules.game_end``):

    - ``deals`` (foster, hoyle, parlett, foster-more, widow): after
      ``deals_total`` deals; the highest ledger balance wins, tied leaders share.
    - ``lives`` (oldway): when one seat is left with lives; it sweeps the pool
      and is the winner.
    - ``chips`` (jaques): when at most one seat has chips, or after the
      ``fixed_rounds``; the seat(s) that took the pot are the winners.

    Conservation (every family): ``conserved_total()`` — the running balances
    plus what lies in the pool/pots — is always 0.

    Args:
        rules: the rule system (options already applied).
        n_seats: number of seats.
        first_dealer: seat of the first dealer.
        table: the table id, needed for fair deals and written into records as
            ``table`` (docs/FAIRNESS.md).
        shuffler: the game's fair shuffle (its secret seed, docs/FAIRNESS.md), from
            which ``deal_attempt`` deals; secret until the game is over.
        shuffle_log: the public part of the game's shuffle (commitment, each deal's
            attempt and cuts, the burned attempts); with it records are format 2.

    Raises:
        ValueError: seat count or first dealer out of range.
    """

    def __init__(
        self, rules: Rules, n_seats: int, first_dealer: int, table: int | None = None, *,
        shuffler: Shuffler | None = None, shuffle_log: ShuffleLog | None = None,
    ) -> None:
        """A game with no deal yet (start one with ``start_deal`` or
        ``start_fair_deal``). Arguments and errors: see the class."""
        if not rules.min_players <= n_seats <= rules.max_players:
            raise ValueError(
                f"{rules.name} needs {rules.min_players} to {rules.max_players} players"
            )
        if not 0 <= first_dealer < n_seats:
            raise ValueError("first dealer is not a seat")
        self.rules = rules
        self.n = n_seats
        self.first_dealer = first_dealer
        #: deals in the game, or ``None`` when the game ends by lives or chips
        self.deals_total: int | None = rules.deals_in_game(n_seats)
        self.deals: list[AnyDeal] = []
        #: per deal, its fairness data (docs/FAIRNESS.md), or ``None``. Secret while
        #: the deal is open: only ``reveal`` and records read it, never a deal object.
        self.proofs: list[DealProof | None] = []
        self.table = table
        self.closed = False
        #: the fair shuffle of the whole game (format 2): its seed is secret while the
        #: game runs (``revealed_seed``); never part of a deal or an observation
        self.shuffler = shuffler
        self.shuffle_log = shuffle_log

    # ------------------------------------------------------------- state
    @property
    def current(self) -> AnyDeal | None:
        """The deal in progress, or ``None``."""
        if self.deals and not self.deals[-1].finished:
            return self.deals[-1]
        return None

    @property
    def over(self) -> bool:
        """The game is over: complete, or closed before its end."""
        return self.closed or self.complete

    @property
    def deals_played(self) -> int:
        """Deals that reached a showdown."""
        return sum(1 for d in self.deals if d.showdown is not None and d.finished)

    @property
    def complete(self) -> bool:
        """The game is over: every deal played (``deals``), or the last deal ended
        the game (``lives``, ``chips``)."""
        if self.rules.game_end == "deals":
            assert self.deals_total is not None
            return self.deals_played >= self.deals_total
        return bool(self.deals) and self.deals[-1].game_over

    @property
    def ledger(self) -> list[int]:
        """Balance per seat after the finished deals (points or chips won/lost)."""
        totals = [0] * self.n
        for deal in self.deals:
            if deal.finished:
                for seat, d in enumerate(deal.delta):
                    totals[seat] += d
        return totals

    @property
    def running_balances(self) -> list[int]:
        """Balance per seat including the open deal's movements so far."""
        totals = self.ledger
        if self.current is not None:
            for seat, d in enumerate(self.current.delta):
                totals[seat] += d
        return totals

    def _initial(self) -> Standing:
        rules = self.rules
        return Standing(
            pots=(0,) * rules.n_pots,
            lives=(rules.lives,) * self.n if rules.lives else None,
            horse_available=bool(rules.lives and rules.horse),
            chips=(rules.chips,) * self.n if rules.chips else None,
        )

    @property
    def standing(self) -> Standing:
        """The state the next deal starts from: carried pots, lives, horse, chips
        (while a deal is open: the state it started from)."""
        finished = [d for d in self.deals if d.finished]
        return finished[-1].standing_after() if finished else self._initial()

    @property
    def carry(self) -> int:
        """Points that will join the next deal's pool (hoyle no-hand carry; the
        oldway pool; the jaques pots); 0 while a deal is open."""
        if not self.deals or not self.deals[-1].finished:
            return 0
        return sum(self.standing.pots)

    @property
    def pots(self) -> tuple[int, ...]:
        """What lies in the pool/pots now: the open deal's, else the carried ones."""
        deal = self.current
        return deal.pots if deal is not None else self.standing.pots

    def conserved_total(self) -> int:
        """``sum(running_balances) + sum(pots)``: 0 at every moment, in every family
        (points/chips only move between seats and the pool/pots)."""
        return sum(self.running_balances) + sum(self.pots)

    @property
    def lives(self) -> list[int] | None:
        """Lives per seat now (oldway), else ``None``."""
        deal = self.current
        if isinstance(deal, WidowDeal) and deal.lives is not None:
            return list(deal.lives)
        lives = self.standing.lives
        return None if lives is None else list(lives)

    @property
    def horse_available(self) -> bool:
        """The horse has not been offered yet (oldway)."""
        deal = self.current
        if isinstance(deal, WidowDeal):
            return deal.horse_available
        return self.standing.horse_available

    @property
    def chips(self) -> list[int] | None:
        """Chips per seat now (jaques: the starting stack plus the running balance),
        else ``None``."""
        if not self.rules.chips:
            return None
        return [self.rules.chips + b for b in self.running_balances]

    @property
    def in_play(self) -> list[int]:
        """Seats still in the game: all, or those with lives (oldway) or chips (jaques)
        as the next deal will see them."""
        return list(self.standing.in_play(self.n))

    @property
    def next_dealer(self) -> int:
        """The dealer of the next deal: the deal passes one seat in play order,
        skipping seats that are out."""
        if not self.deals:
            return self.first_dealer
        last = self.deals[-1].dealer
        following = next_in(last, self.n, self.rules.step, self.in_play)
        return last if following is None else following

    @property
    def winners(self) -> list[int] | None:
        """The winners once the game is complete (else ``None``): the highest final
        balance (``deals``; several on a tie), the last seat with lives (oldway),
        the seat(s) that took the pot (jaques)."""
        if not self.complete:
            return None
        if self.rules.game_end != "deals":
            return sorted(self.deals[-1].game_winners)
        ledger = self.ledger
        top = max(ledger)
        return [s for s, v in enumerate(ledger) if v == top]

    # ------------------------------------------------------------ steps
    def start_deal(
        self,
        deck: Sequence[Card] | None = None,
        rng: random.Random | None = None,
        *,
        proof: DealProof | None = None,
        attempt: Attempt | None = None,
    ) -> AnyDeal:
        """Start the next deal with ``deck`` (or a fresh CSPRNG shuffle). ``rng``
        (tests only) also drives live jaques reshuffles. ``proof`` is a format 1
        deal's fairness data, ``attempt`` the attempt a format 2 deal was dealt
        from (docs/FAIRNESS.md); both are kept as given, never checked here (that
        is ``verify_record``'s job). With the game's ``shuffler`` and an
        ``attempt``, live reshuffles of the deal derive from the seed.

        Raises:
            GameError: a deal is in progress, the game is complete or closed.
            ValueError: a bad deck.
        """
        if self.closed:
            raise GameError("This game has been closed.")
        if self.current is not None:
            raise GameError("A deal is already in progress.")
        if self.complete:
            raise GameError("Every deal of this game has been played.")
        cards = list(deck) if deck is not None else shuffled_deck(rng)
        st = self.standing
        dealer = self.next_dealer
        number = len(self.deals) + 1
        final = self.deals_total is not None and number == self.deals_total
        deal: AnyDeal
        shuffler, reshuffler = self.shuffler, None
        if shuffler is not None and attempt is not None:
            def reshuffler(index: int, pile: Sequence[Card]) -> list[Card]:
                assert attempt is not None
                return shuffler.reshuffle(number, attempt.attempt, attempt.cuts, index, pile)
        if self.rules.family == "trade":
            deal = TradeDeal(self.rules, self.n, dealer, cards, carried_pool=st.pots[0], final=final)
        elif self.rules.family == "widow":
            deal = WidowDeal(
                self.rules, self.n, dealer, cards, carried_pool=st.pots[0], lives=st.lives,
                horse_available=st.horse_available, first=not self.deals, final=final,
            )
        else:
            deal = DiscardDeal(
                self.rules, self.n, dealer, cards, chips=st.chips, carried_pots=st.pots,
                first=not self.deals, final=final, rng=rng, reshuffler=reshuffler,
            )
        self.deals.append(deal)
        self.proofs.append(proof)
        if self.shuffle_log is not None:
            self.shuffle_log.attempts.append(attempt)
        return deal

    def deal_attempt(self, attempt: Attempt) -> AnyDeal:
        """Deal the next deal from the game's seed: the deck of ``attempt`` (its
        number and cuts; docs/FAIRNESS.md "The algorithm"), its reshuffles too.
        The caller has written the attempt down first (a burned attempt is never
        dealt again).

        Raises:
            GameError: no shuffler, an attempt of another deal, or as ``start_deal``.
        """
        if self.shuffler is None or self.shuffle_log is None:
            raise GameError("This game has no fair shuffle.")
        if attempt.deal != len(self.deals) + 1:
            raise GameError(f"That attempt is for deal {attempt.deal}, not the next deal.")
        deck = self.shuffler.deck(attempt.deal, attempt.attempt, attempt.cuts)
        return self.start_deal(deck, attempt=attempt)

    def burn(self, attempt: Attempt) -> None:
        """Note an attempt written down but never dealt (a failed write): the
        record lists it, and it is never dealt again (docs/FAIRNESS.md "Burned
        attempts").

        Raises:
            GameError: the game has no fair shuffle.
        """
        if self.shuffle_log is None:
            raise GameError("This game has no fair shuffle.")
        self.shuffle_log.burned.append(attempt)

    def revealed_seed(self) -> bytes | None:
        """The game's seed once the game is over (complete or closed), else ``None``."""
        return self.shuffler.seed if self.shuffler is not None and self.over else None

    def start_fair_deal(self, seed: bytes, cuts: Sequence[bytes | str]) -> AnyDeal:
        """Start the next deal with the deck ``deck_order(seed, cuts, table, number,
        preset)`` gives (docs/FAIRNESS.md); the number counts deals from 1. The
        seed stays secret until ``reveal``.

        Raises:
            GameError: no table id, or as ``start_deal``.
            ValueError: a seed that is not 32 bytes, or an out-of-range table id.
        """
        if self.table is None:
            raise GameError("A fair deal needs the table id.")
        number = len(self.deals) + 1
        deck = deck_order(seed, cuts, self.table, number, self.rules.name)
        return self.start_deal(deck, proof=DealProof.make(seed, cuts))

    def chain_heads(self, players: Sequence[str], options: dict[str, Any] | None = None,
                    ai_levels: dict[str, str] | None = None) -> dict[str, str]:
        """The head of ``to_record``'s chain after each of its entries (``header``,
        ``burned N.A``, ``deal N``, ``end``: ``fairness.chain_entries``).

        Raises:
            GameError: the game has no fair shuffle.
        """
        if self.shuffler is None or self.shuffle_log is None:
            raise GameError("This game has no fair shuffle.")
        entries = chain_entries(_record(self, players, options, ai_levels, sealed=False))
        heads = chain_heads(self.shuffler.chain_key(), [e for _, e in entries])
        return {what: head for (what, _), head in zip(entries, heads, strict=True)}

    def reveal(self, index: int) -> DealProof | None:
        """The fairness data of deal ``index`` (from 0) that may be made public now:
        everything once the deal is over (showdown or void) or the game closed; while
        it is open only the commitment and the cuts. ``None`` for a deal without it.
        """
        proof = self.proofs[index]
        if proof is None or self.deals[index].finished or self.closed:
            return proof
        return DealProof(proof.commitment, None, proof.cuts)

    def apply(self, op: Operation) -> Operation:
        """Apply ``op`` to the deal in progress.

        Raises:
            IllegalAction: no deal in progress, or the operation is not legal.
        """
        deal = self.current
        if deal is None:
            raise IllegalAction("No deal is in progress.")
        return deal.apply(op)

    def rewound(self, count: int) -> Game:
        """A copy of this game with its latest deal as it was after its first
        ``count`` operations: the deal dealt again from the same deck, from the
        same standing, and those operations applied (docs/RULES.md §3: a deal is
        a pure function of its deck and operations). The earlier deals are
        shared, not copied; this game is not changed. Only the public part of
        the shuffle is carried (each deal's attempt and cuts): a copy is only
        ever shown, never recorded, and never shuffles.

        Raises:
            GameError: the game has no deal.
            ValueError: ``count`` is not in ``0..len(operations)``.
        """
        if not self.deals:
            raise GameError("No deal has started.")
        latest = self.deals[-1]
        if not 0 <= count <= len(latest.operations):
            raise ValueError(f"count must be 0..{len(latest.operations)}")
        log = self.shuffle_log
        shown = None if log is None else ShuffleLog(log.commitment, log.posted,
                                                     list(log.attempts[:-1]), list(log.burned))
        copy = Game(self.rules, self.n, self.first_dealer, table=self.table, shuffle_log=shown)
        copy.deals = self.deals[:-1]
        copy.proofs = [None] * len(copy.deals)
        deal = copy.start_deal(latest.deck, attempt=None if log is None else log.attempts[-1])
        for op in latest.operations[:count]:
            deal.apply(op)
        return copy

    def close(self) -> AnyDeal | None:
        """Close the game early; an open deal is voided (its antes, stakes and fees
        refunded). Returns the voided deal, if any."""
        deal = self.current
        if deal is not None:
            deal.void()
        self.closed = True
        return deal

    # ----------------------------------------------------------- records
    @property
    def options(self) -> dict[str, Any]:
        """The table options that differ from the preset (``Rules.with_options`` input)."""
        base = PRESETS.get(self.rules.name)
        keys = [k for k in self.rules.table_options if not (k == "stake" and self.rules.three_stake)]
        return {
            key: getattr(self.rules, key)
            for key in keys
            if base is None or getattr(self.rules, key) != getattr(base, key)
        }

    def to_record(
        self, players: Sequence[str], options: dict[str, Any] | None = None,
        ai_levels: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """The game as a docs/RULES.md §3 record (JSON-ready; docs/RECORDS.md);
        ``options`` default to the game's own table options, ``ai_levels`` (seat,
        as a string, -> level) is written when given. A game with a fair shuffle
        gives a format 2 record (docs/FAIRNESS.md "In records"): its ``shuffle``
        holds the commitment, where it was posted and the burned attempts, each
        deal its ``attempt`` and ``cuts``, and once the game is over the seed, how
        it ended and the chain's head. A format 1 deal carries its own proof; its
        seed only once it is over. The decks make a record private while the game
        runs."""
        return _record(self, players, options, ai_levels)

    def summary(self) -> dict[str, Any]:
        """The outcome as ``python -m bot.engine replay`` prints it (docs/RULES.md §3;
        the family fields are listed in docs/RECORDS.md)."""
        return _summary(self)


def _record(game: Game, players: Sequence[str], options: dict[str, Any] | None,
            ai_levels: dict[str, str] | None, *, sealed: bool = True) -> dict[str, Any]:
    """``game``'s record (``Game.to_record``); once the game is over, its shuffle's
    ``end`` and (``sealed``) its seed and head."""
    log = game.shuffle_log
    deals = []
    for index, d in enumerate(game.deals):
        item: dict[str, Any] = {
            "deck": [card_code(c) for c in d.deck],
            "actions": record_actions(d.operations),
        }
        proof = game.reveal(index)
        if proof is not None:
            item.update(proof.to_record())
        attempt = log.attempts[index] if log is not None else None
        if attempt is not None:
            item["attempt"] = attempt.attempt
            item["cuts"] = [c.to_record() for c in attempt.cuts]
        deals.append(item)
    record: dict[str, Any] = {}
    if log is not None:
        record["format"] = FORMAT
    record.update({
        "rules": game.rules.name,
        "options": dict(game.options if options is None else options),
        "players": list(players),
        "first_dealer": game.first_dealer,
    })
    if game.table is not None:
        record["table"] = game.table
    if ai_levels:
        record["ai_levels"] = dict(ai_levels)
    if log is not None:
        record["shuffle"] = {"commitment": log.commitment, "posted": log.posted,
                             "burned": [b.to_record() for b in log.burned]}
    record["deals"] = deals
    shuffler = game.shuffler
    if log is not None and game.over and shuffler is not None:
        part = record["shuffle"]
        if sealed:
            part["seed"] = shuffler.seed.hex()
        part["end"] = "finished" if game.complete else "closed"
        if sealed:
            entries = [e for _, e in chain_entries(record)]
            part["head"] = chain_heads(shuffler.chain_key(), entries)[-1]
    return record


def _summary(game: Game) -> dict[str, Any]:
    """``Game.summary``."""
    deals = []
    for d in game.deals:
        sd = d.showdown if d.finished else None
        item: dict[str, Any] = {
            "dealer": d.dealer,
            "hands": [[card_code(c) for c in h] for h in d.hands],
            "categories": [
                None if c is None else category_name(c) for c in sd.categories
            ] if sd else None,
            "winner": sd.winner if sd else None,
            "ended_by": sd.ended_by if sd else None,
            "knocker": sd.knocker if sd else None,
            "ledger_delta": list(d.delta),
        }
        if isinstance(d, WidowDeal):
            item["widow"] = [card_code(c) for c in d.widow]
            if d.lives is not None:
                item["lives"] = list(d.lives)
                item["loser"] = d.loser if sd else None
                item["horse"] = d.horse_buyer
                item["pool"] = d.pool
        elif isinstance(d, DiscardDeal):
            item["chips"] = [d.chips(s) for s in range(d.n)]
            item["pots"] = list(d.pots)
            item["lowest"] = list(sd.losers) if sd else None
            if game.rules.three_stake:
                item["pot_winners"] = [list(w) for w in sd.pot_winners] if sd else None
            item["reshuffles"] = d.reshuffles
        deals.append(item)
    out: dict[str, Any] = {
        "deals": deals,
        "ledger": game.ledger,
        "complete": game.complete,
        "winners": game.winners,
    }
    if game.rules.lives:
        out["lives"] = game.lives
        out["pool"] = sum(game.pots)
    if game.rules.chips:
        out["chips"] = game.chips
        out["pots"] = list(game.pots)
    return out


def category_name(category: Category) -> str:
    """Lower-case category name for records: ``four``, ``tricon``, ``sequence``,
    ``flush``, ``pair``, ``point``, ``none`` (jaques: high card)."""
    return category.name.lower()


def replay(record: Any) -> Game:
    """Rebuild a game from a docs/RULES.md §3 record: a pure function of the record.

    Nothing missing is filled in: a record without one of ``RECORD_KEYS``, a
    deal without its ``deck`` or ``actions``, an action without what it needs
    (``seat``, ``action``, a card, a target, a jaques draw from an empty stock
    without its ``reshuffle``) is an error, never a default or fresh randomness.
    Only what the format leaves out on purpose keeps its meaning: an options key
    absent is the preset's value, ``knock`` absent is no knock, a ``response``
    or ``discard`` absent is still awaited (docs/RECORDS.md "Rulings"). A format 2
    record whose shuffle says the game was ``closed`` gives a closed game (its
    unfinished deal voided, as the table did).

    Raises:
        RecordError: the record is malformed, incomplete or an action is
            illegal, with the deal and action index where it went wrong.
    """
    if not isinstance(record, dict):
        raise RecordError("the record must be a JSON object")
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        raise RecordError(f"the record has no {', '.join(missing)}")
    game = _game_of(record)
    deals = record["deals"]
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    if game.shuffle_log is not None:
        burned = game.shuffle_log.burned
        if any(b.deal > len(deals) + 1 for b in burned):
            raise RecordError("a burned attempt is of a deal after the next one")
    for di, deal_record in enumerate(deals):
        _replay_deal(game, di, deal_record)
    if game.shuffle_log is not None and record["shuffle"].get("end") == "closed":
        game.close()  # a format 2 record says so: its unfinished deal was voided
    return game


def _game_of(record: dict[str, Any]) -> Game:
    """The game a record's header describes (``format``, ``rules``, ``options``,
    ``players``, ``first_dealer``, ``table`` and, in format 2, ``shuffle``), with no
    deal yet.

    Raises:
        RecordError: a header field of the wrong type or value, an unknown preset
            or option, a seat count the rules do not allow (deal and action ``None``).
    """
    try:
        name = record["rules"]
        if not isinstance(name, str):
            raise RecordError("rules must be a preset name")
        options = record["options"]
        if not isinstance(options, dict):
            raise RecordError("options must be an object")
        rules = get_preset(name, options)
        players = record["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("players must be a list of names")
        first = record["first_dealer"]
        if not isinstance(first, int) or isinstance(first, bool):
            raise RecordError("first_dealer must be a seat number")
        table = record.get("table")
        if table is not None and (
            not isinstance(table, int) or isinstance(table, bool) or not 0 <= table < 1 << 64
        ):
            raise RecordError("table must be a table id (a whole number from 0 to 2**64 - 1)")
        if record_format(record) == 1:
            return Game(rules, len(players), first, table)
        log, shuffler = _shuffle_of(record, len(players), table, name)
        return Game(rules, len(players), first, table, shuffler=shuffler, shuffle_log=log)
    except (RulesError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(str(exc)) from None


def _replay_deal(game: Game, di: int, deal_record: Any) -> None:
    """Deal ``game``'s next deal from record deal ``di`` (0-based): its deck and
    fairness data, then each of its actions in order.

    Raises:
        RecordError: at deal ``di`` (and the action's index where one is wrong):
            the deal is not an object, the previous deal is unfinished, a bad
            deck or proof, ``actions`` not a list, an action after the deal is
            over, or an action that is malformed or illegal.
    """
    if not isinstance(deal_record, dict):
        raise RecordError("a deal must be an object", di)
    if game.current is not None:
        raise RecordError("the previous deal is unfinished", di)
    try:
        raw = deal_record.get("deck")
        if not isinstance(raw, list):
            raise ValueError("deck must be a list of 52 card codes")
        deck = [_card(c, "deck entry") for c in raw]
        if game.shuffle_log is not None:
            deal = game.start_deal(deck, attempt=_attempt(deal_record, di + 1, game.n))
        else:
            deal = game.start_deal(deck, proof=_proof(deal_record))
    except (ValueError, GameError) as exc:
        raise RecordError(str(exc), di) from None
    actions = deal_record.get("actions")
    if not isinstance(actions, list):
        raise RecordError("actions must be a list (empty when nobody has acted)", di)
    for ai, action in enumerate(actions):
        if deal.finished:
            raise RecordError("the deal is already over", di, ai)
        try:
            for op in operations_of(deal, action):  # one at a time: each applied first
                deal.apply(op)
        except ValueError as exc:  # IllegalAction is a ValueError
            raise RecordError(str(exc), di, ai) from None

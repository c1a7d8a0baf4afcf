"""Pure Commerce rules engine: no discord, no sqlite, no asyncio.

Public surface: cards (``parse_card``, ``card_label``...), hands (``score``,
``describe``), ``Rules``/``PRESETS``/``OPTIONS``, one deal class per family —
``TradeDeal`` (trade and barter), ``WidowDeal`` (widow, oldway), ``DiscardDeal``
(jaques) — behind one abstract interface (``AnyDeal`` = ``DealBase``) with the
verify/can/do triples, ``legal_actions``, ``controls``, ``choices`` and
``act(seat, Decision)``, the select values of decisions (``choices``), ``Game``
with records (``replay``) and the AI (``easy.choose``; the levels in ``levels``).
"""

from .cards import DECK, Card, card_code, card_label, hand_label, parse_card, shuffled_deck
from .discard import DiscardDeal
from .family import (
    Controls,
    DealBase,
    Decision,
    IllegalAction,
    Movement,
    Observation,
    PublicEvent,
    Showdown,
    Standing,
)
from .game import AnyDeal, Game, GameError, RecordError, category_name, record_actions, replay
from .hands import Category, Ranking, describe, score
from .operations import (
    BarterAnswer,
    BarterOffer,
    BuyHorse,
    DeclineHorse,
    Draw,
    DrawDiscard,
    DrawKeep,
    KeepHand,
    Knock,
    Offer,
    OfferAnswer,
    Operation,
    Pass,
    Pounce,
    Stand,
    Swap,
    TakeDiscard,
    TakeWidow,
    Trade,
    operation_from_dict,
    operation_to_dict,
)
from .rules import OPTIONS, PRESETS, Option, Rules, RulesError, get_preset, implied_options
from .trade import TradeDeal
from .widow import WidowDeal

__all__ = [
    "DECK", "OPTIONS", "PRESETS", "AnyDeal", "BarterAnswer", "BarterOffer", "BuyHorse", "Card",
    "Category", "Controls", "DealBase", "Decision", "DeclineHorse", "DiscardDeal", "Draw",
    "DrawDiscard", "DrawKeep", "Game", "GameError", "IllegalAction", "KeepHand", "Knock",
    "Movement", "Observation", "Offer", "OfferAnswer", "Option", "Operation", "Pass", "Pounce",
    "PublicEvent", "Ranking", "RecordError", "Rules", "RulesError", "Showdown", "Stand", "Standing", "Swap",
    "TakeDiscard", "TakeWidow", "Trade", "TradeDeal", "WidowDeal", "card_code", "card_label",
    "category_name", "describe", "get_preset", "hand_label", "implied_options", "operation_from_dict",
    "operation_to_dict", "parse_card", "record_actions", "replay", "score", "shuffled_deck",
]

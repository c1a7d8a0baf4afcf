"""Pure Commerce rules engine: no discord, no sqlite, no asyncio.

Public surface: cards (``parse_card``, ``card_label``...), hands (``score``,
``describe``), ``Rules``/``PRESETS``, ``Deal`` with the verify/can/do triples,
``Game`` with records (``replay``) and the AI (``ai.choose``).
"""

from .cards import DECK, Card, card_code, card_label, hand_label, parse_card, shuffled_deck
from .deal import Deal, IllegalAction, Movement, Observation, PublicEvent, Showdown
from .game import Game, GameError, RecordError, record_actions, replay
from .hands import Category, describe, score
from .operations import (
    BarterAnswer,
    BarterOffer,
    Knock,
    Operation,
    Trade,
    operation_from_dict,
    operation_to_dict,
)
from .rules import PRESETS, Rules, RulesError, get_preset

__all__ = [
    "DECK", "PRESETS", "BarterAnswer", "BarterOffer", "Card", "Category", "Deal", "Game",
    "GameError", "IllegalAction", "Knock", "Movement", "Observation", "Operation",
    "PublicEvent", "RecordError", "Rules", "RulesError", "Showdown", "Trade", "card_code",
    "card_label", "describe", "get_preset", "hand_label", "operation_from_dict",
    "operation_to_dict", "parse_card", "record_actions", "replay", "score", "shuffled_deck",
]

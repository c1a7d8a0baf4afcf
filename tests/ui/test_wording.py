"""Words that say what the game does (issue 23 §3): a game's length in the lobby
is its deals, its lives or its chips, as its preset plays it."""

from __future__ import annotations

from bot.engine import get_preset
from bot.ui.render import game_length


def test_a_games_length_is_said_in_its_own_terms():
    assert game_length(get_preset("foster")) == "1 deal per player"
    assert "deal" not in game_length(get_preset("oldway"))
    assert "lives each" in game_length(get_preset("oldway"))
    jaques = game_length(get_preset("jaques"))
    assert "chips each" in jaques and "deal" not in jaques
    fixed = game_length(get_preset("jaques", {"fixed_rounds": 4}))
    assert "4 rounds" in fixed
    assert game_length(get_preset("foster", {"deals_per_player": 2})) == "2 deals per player"

"""Words that explain (issue 10): every text the bot renders for random games of
every preset agrees in number ("1 player", "2 players", never "(s)"), labels the
numbers of the seat list, explains the dealer marker and names players in embeds
rather than mentioning them. The scan covers the embeds, the private hand text,
the panels' buttons and prompts, so a new sentence of the same kind is caught too.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.engine import PRESETS, Game, easy, get_preset, shuffled_deck
from bot.service import LiveTable
from bot.ui import panel, render

ROOT = Path(__file__).resolve().parents[2]
NOUNS = ("player", "point", "chip", "card", "turn", "deal", "second", "minute", "balance",
         "seat", "other player")
#: "1 players", "3 chip" and the like
_NOUN = "|".join(NOUNS)
BAD_NUMBER = re.compile(
    rf"(?<![\w.+-])(?:1 (?:{_NOUN})s|(?:0|[2-9]|[1-9]\d+) (?:{_NOUN}))(?![\w'])")
#: "Ann and Ben pays"
BAD_VERB = re.compile(r" and [^\s,.]+ (?:pays|takes|loses|has|is|was) ")


def problems(text: str) -> list[str]:
    found = [m.group(0) for m in BAD_NUMBER.finditer(text)]
    found += [m.group(0) for m in BAD_VERB.finditer(text)]
    if "(s)" in text:
        found.append("(s)")
    return found


def test_plural_helper():
    assert render.plural(1, "player") == "1 player"
    assert render.plural(0, "player") == "0 players"
    assert render.plural(2, "life") == "2 lives"
    assert render.plural(1, "pays", number=False) == "pays"
    assert render.plural(3, "pays", number=False) == "pay"
    assert render.names_list(["Ann", "Ben", "Cat"]) == "Ann, Ben and Cat"
    for good in ("1 player", "2 players", "costs 1 point", "0 chips", "point 16 (3 cards)"):
        assert not problems(good), good
    for bad in ("1 players", "2 player", "3 chip left", "pay(s)", "Ann and Ben pays into"):
        assert problems(bad), bad


def embed_text(embed) -> str:
    parts = [embed.title or "", embed.description or "",
             embed.footer.text if embed.footer else ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(p or "" for p in parts)


def live_table(game: Game, names: list[str], humans: int) -> LiveTable:
    """A table in memory around ``game``: the first ``humans`` seats are members."""
    row = SimpleNamespace(id=1, number=7, status="playing", host_id=100, options={},
                          place="channel", channel_id=5, guild_id=4, next_deal_delay=0,
                          next_commitment=None, coach=True)
    seats = [SimpleNamespace(seat=i, member_id=100 + i if i < humans else None, name=name,
                             gone=False, away=False, ai_plays=i >= humans, timeouts=0,
                             ai_level=None if i < humans else "easy")
             for i, name in enumerate(names)]
    return LiveTable(row=row, seats=seats, rules=game.rules, game=game)  # type: ignore[arg-type]


def texts_of(live: LiveTable) -> list[str]:
    """Everything rendered for the table now: its embeds, every seat's hand text,
    panel and the buttons' labels."""
    deal = live.deal
    assert deal is not None
    out = [embed_text(render.lobby_embed(live)), embed_text(render.table_embed(live))]
    out += [render.event_text(live, e) for e in deal.events]
    for seat in range(deal.n):
        out.append(render.hand_text(live, deal.observation(seat)))
        shown = panel.build(live, seat)
        out.append(shown.content)
        if shown.view is not None:
            out += [c.get("label") or "" for row in shown.view.to_components()
                    for c in row["components"]]
    if deal.showdown is not None:
        out.append(embed_text(render.showdown_embed(live)))
    if live.game is not None and live.game.complete:
        out.append(embed_text(render.final_embed(live)))
    return out


def random_games():
    for preset in sorted(PRESETS):
        rules = get_preset(preset)
        for n in (3, 4, min(6, rules.max_players)):
            rng = random.Random(f"{preset}{n}")
            game = Game(rules, n, rng.randrange(n))
            names = ["Ann", "Ben", "Cat", "Dora", "Eli", "Fay"][:n]
            yield preset, live_table(game, names, humans=2), rng


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rendered_texts_agree_in_number_and_label_their_numbers(preset):
    checked = 0
    for name, live, rng in random_games():
        if name != preset:
            continue
        game = live.game
        assert game is not None
        for _ in range(40):
            if game.complete:
                break
            deal = game.start_deal(shuffled_deck(rng), rng=rng)
            while True:
                for text in texts_of(live):
                    assert not problems(text), (preset, problems(text), text)
                    assert "<@" not in text or "Your hand" in text or text.count("<@") == 0
                    checked += 1
                assert render.table_embed(live).fields == []  # the seats are the picture's
                if deal.finished:
                    break
                seat = deal.to_act
                deal.act(seat, easy.choose(deal.observation(seat)))
    assert checked > 50


def test_embeds_carry_names_not_mentions():
    for _, live, rng in random_games():
        game = live.game
        assert game is not None
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        while not deal.finished:
            deal.act(deal.to_act, easy.choose(deal.observation(deal.to_act)))
        for embed in (render.table_embed(live), render.showdown_embed(live),
                      render.lobby_embed(live)):
            assert "<@" not in embed_text(embed), embed_text(embed)


def string_constants(path: Path) -> list[tuple[int, str]]:
    """String literals of a module (f-string parts included), docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            docs.add(id(body[0].value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_user_text_hedges_its_number_with_s_in_brackets():
    """No string the bot or a cog can send says "point(s)", "pay(s)"...: a plural
    is chosen for the number (``render.plural``); the engine's own errors for
    malformed arguments are for programmers, not players."""
    paths = [p for p in ROOT.joinpath("bot").rglob("*.py") if "engine" not in p.parts]
    offenders = [f"{path.relative_to(ROOT)}:{line}: {text!r}"
                 for path in [*paths, *ROOT.joinpath("cogs").glob("*.py")]
                 for line, text in string_constants(path) if "(s)" in text]
    assert not offenders, offenders

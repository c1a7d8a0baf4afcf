"""The embeds and texts of bot/ui/render.py, built from a table in memory: a game's
length in the lobby is its deals, its lives or its chips, as its preset plays it;
every embed of the largest table of every preset, with the longest names, keeps
within Discord's limits; the table message shows only public cards and marks the
dealer and the seat to act; the showdown and the final standings say who won."""

from __future__ import annotations

import datetime
import random
import re

import pytest

from bot.engine import PRESETS, Game, easy, get_preset, shuffled_deck
from bot.ui import media, render
from bot.ui.cards import card_label, hand_label
from bot.ui.render import game_length
from tests.ui.limits import embed_problems
from tests.ui.test_words import embed_text, live_table

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
#: a card's label as the embeds write it ("10♢")
CARD = re.compile(r"(?<![\w])(?:10|[2-9JQKA])[♧♢♡♤]")


def test_a_games_length_is_said_in_its_own_terms():
    assert game_length(get_preset("foster")) == "1 deal per player"
    assert "deal" not in game_length(get_preset("oldway"))
    assert "lives each" in game_length(get_preset("oldway"))
    jaques = game_length(get_preset("jaques"))
    assert "chips each" in jaques and "deal" not in jaques
    fixed = game_length(get_preset("jaques", {"fixed_rounds": 4}))
    assert "4 rounds" in fixed
    assert game_length(get_preset("foster", {"deals_per_player": 2})) == "2 deals per player"


# ------------------------------------------------------------------ the embeds, from observations
#: the longest names a member may show (``names.MAX_NAME``), full of what markdown escapes
#: (each such character doubles in the embed), so the embeds are at their largest
LONG = ["*_~|`>#-+.[]<:@" * 2 + f"{i:02d}" for i in range(12)]


def played_table(preset: str, seed: int, *, n: int | None = None, humans: int = 2,
                 names: list[str] | None = None):
    """A table of ``preset`` at its largest (``n`` seats, else ``max_players``) and the
    random source that deals it."""
    rules = get_preset(preset)
    n = n or rules.max_players
    rng = random.Random(f"{preset} {seed}")
    game = Game(rules, n, rng.randrange(n))
    return live_table(game, (names or LONG)[:n], humans=humans), rng


def moments(live, rng, *, deals: int = 2):
    """Play ``deals`` deals (the AI moving for every seat), yielding after every move."""
    game = live.game
    for _ in range(deals):
        if game.complete:
            return
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        yield deal
        while not deal.finished:
            deal.act(deal.to_act, easy.choose(deal.observation(deal.to_act)))
            yield deal


def public_cards(obs) -> set[str]:
    """The labels of the cards the public observation shows."""
    shown = list(obs.widow or ()) + list(obs.shown_waste or ())
    if obs.discard_top is not None:
        shown.append(obs.discard_top)
    return {card_label(c) for c in shown}


def test_the_lobby_says_what_ends_the_game():
    for preset, ends in (("foster", "1 deal per player"), ("oldway", "until one player is left"),
                         ("jaques", "until one player has chips left")):
        live, _ = played_table(preset, 1, n=3, names=["Ann", "Ben", "Cat"])
        rules = embed_text(render.lobby_embed(live))
        assert ends in rules, rules
        assert preset == "foster" or "per player" not in rules, rules


def test_the_cards_in_the_middle_have_one_name_in_field_and_footer():
    for preset, field, word, other in (("widow", "Widow (face up)", "widow", "middle"),
                                       ("oldway", "Middle (face up)", "middle", "widow")):
        live, rng = played_table(preset, 1, n=3, names=["Ann", "Ben", "Cat"])
        next(moments(live, rng, deals=1))
        embed = render.table_embed(live)
        assert embed.fields == []  # the picture shows the cards in the middle, and names them
        assert f"Face up ({word})" in media.picture_file(media.table_png(live)).description
        assert field in [name for name, _ in render.middle_fields(live.deal.observation(None))]
        footer = embed.footer.text or ""
        assert f"Swap with the {word};" in footer and other not in footer, footer
        assert "face-up middle cards" not in footer


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_embed_of_the_largest_table_keeps_within_discords_limits(preset):
    live, rng = played_table(preset, 1)
    assert embed_problems(render.lobby_embed(live)) == []
    checked = 0
    for deal in moments(live, rng):
        if deal.finished:
            assert embed_problems(render.showdown_embed(live, next_deal=NOW)) == []
        assert embed_problems(render.table_embed(live, deadline=NOW)) == []
        checked += 1
    assert embed_problems(render.final_embed(live)) == []
    assert checked > 10


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_table_message_names_no_card_the_public_may_not_see(preset):
    live, rng = played_table(preset, 2, n=5)
    seen: dict[int, set[str]] = {}  # every card the public has seen face up, by deal
    for deal in moments(live, rng):
        public = seen.setdefault(id(deal), set())
        public |= public_cards(deal.observation(None))
        if deal.finished:
            continue  # the showdown shows every hand, on purpose
        shown = set(CARD.findall(embed_text(render.table_embed(live))))
        assert shown <= public, (preset, shown - public)


def test_the_table_message_says_who_acts_and_what_to_do_and_leaves_the_rest_to_its_picture():
    live, rng = played_table("foster", 3, n=4, humans=4, names=["Ann", "Ben", "Cat", "Dora"])
    deal = next(moments(live, rng))
    deal.act(deal.to_act, easy.choose(deal.observation(deal.to_act)))
    embed = render.table_embed(live, deadline=NOW)
    text = embed.description or ""
    actor = ["Ann", "Ben", "Cat", "Dora"][deal.to_act]
    lines = text.splitlines()
    assert lines[0] == f"**To act: {actor}**"
    assert lines[1].startswith("⏱ Time runs out <t:")
    assert lines[2] == "" and lines[3].startswith("• ")  # the latest moves: no picture shows them
    # the seats, balances, dealer, pool and stock are the picture's alone
    assert embed.fields == [] and "Dealer" not in text and "balance" not in text
    assert embed.image.url == "attachment://table.png" or embed.image.url is None
    assert embed.footer.text == render.FOOTERS["trade"]
    assert {"Ann", "Ben", "Cat", "Dora"} <= set(
        re.findall(r"\w+", media.picture_file(media.table_png(live)).description or ""))


def test_the_table_message_says_whose_seat_the_ai_plays_for():
    live, rng = played_table("foster", 3, n=4, humans=4, names=["Ann", "Ben", "Cat", "Dora"])
    next(moments(live, rng))
    live.seats[1].away = True
    live.seats[2].gone = True
    text = render.table_embed(live).description or ""
    assert "\nCat left: the AI plays for them.\n" in text
    assert "\n💤 Ben is away: the AI plays until they press **I'm back**." in text


def test_the_showdown_says_who_won_and_what_next_and_its_picture_every_hand_and_payment():
    names = ["Ann", "Ben", "Cat", "Dora", "Eli"]
    live, rng = played_table("foster", 4, n=5, humans=5, names=names)
    *_, deal = moments(live, rng, deals=1)
    sd = deal.showdown
    assert sd is not None and sd.winner is not None
    embed = render.showdown_embed(live, next_deal=NOW)
    assert embed.title == "Showdown · deal 1"
    lines = (embed.description or "").splitlines()
    assert f"🏆 {names[sd.winner]} wins the pool of {sd.pool_won}." in lines
    assert lines[-1].startswith("⏭ Next deal <t:") and lines[-1].endswith("or press **Next deal**.")
    assert embed.fields == [] and not CARD.search(embed.description or "")
    # the hands and the payments are the picture's, and its description says them too
    alt = media.showdown_file(live).description or ""
    for seat, hand in enumerate(sd.hands):
        assert f"{names[seat]}" in alt and hand_label(hand) in alt
    assert all(line.split(": ", 1)[1].split(" (")[0].split()[0] in alt
               for line in render.payment_lines(live, deal))


#: the most characters and lines a showdown's text may take at any table: what no
#: picture shows (how it ended, who won, what comes next); before issue 23 §3 an
#: eight-seat showdown took some 1,600 characters over 40 lines
SHOWDOWN_CHARACTERS = 400
SHOWDOWN_LINES = 8


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("seats", [8, 12])
def test_a_showdown_at_eight_or_twelve_seats_stays_short(preset, seats):
    rules = get_preset(preset)
    if seats > rules.max_players:
        seats = rules.max_players
    names = [f"Player number {i:02d}" for i in range(seats)]  # long names, as members pick
    live, rng = played_table(preset, seats, n=seats, humans=seats, names=names)
    checked = 0
    for deal in moments(live, rng, deals=4):
        if not deal.finished:
            continue
        embed = render.showdown_embed(live, next_deal=NOW)
        text = embed_text(embed)
        assert len(text) <= SHOWDOWN_CHARACTERS, (len(text), text)
        assert len(text.splitlines()) <= SHOWDOWN_LINES, text
        assert embed.fields == []
        checked += 1
    assert checked


def test_the_final_standings_rank_by_balance_and_crown_the_winners():
    names = ["Ann", "Ben", "Cat"]
    live, rng = played_table("foster", 5, n=3, humans=3, names=names)
    for _ in moments(live, rng, deals=10):
        pass
    game = live.game
    assert game.complete
    embed = render.final_embed(live)
    lines = [line for line in (embed.description or "").splitlines() if line[:1].isdigit()]
    balances = [int(line.split(": ")[1].split()[0].replace("−", "-").replace("±", ""))
                for line in lines]
    assert balances == sorted(game.ledger, reverse=True)
    crowned = {line.split(". ", 1)[1].split(":")[0] for line in lines if "🏆" in line}
    assert crowned == {names[s] for s in game.winners}
    assert embed.footer.text.startswith("This channel is now read-only.")


def test_a_game_closed_early_has_no_winner_and_a_thread_says_locked():
    live, rng = played_table("foster", 6, n=3, names=["Ann", "Ben", "Cat"])
    next(moments(live, rng))
    live.row.place = "thread"
    embed = render.final_embed(live)
    assert "no winner" in (embed.description or "") and "🏆" not in (embed.description or "")
    assert embed.footer.text.startswith("This thread is now locked.")


def test_the_private_hand_shows_the_seats_own_cards_only():
    live, rng = played_table("foster", 7, n=4, humans=4, names=["Ann", "Ben", "Cat", "Dora"])
    deal = next(moments(live, rng))
    for seat in range(4):
        text = render.hand_text(live, deal.observation(seat))
        assert set(CARD.findall(text)) == {card_label(c) for c in deal.hands[seat]}
        assert hand_label(deal.hands[seat]) in text
        assert ("Your turn" in text) == (seat == deal.to_act)


def test_a_field_too_long_for_discord_goes_on_in_another():
    embed = render.discord.Embed()
    lines = [f"{i:03d} " + "x" * 96 for i in range(25)]  # 100 characters each
    render.add_lines(embed, "Hands", lines, inline=False)
    assert [f.name for f in embed.fields] == ["Hands", "Hands (continued)", "Hands (continued)"]
    assert all(len(f.value) <= 1024 and not f.inline for f in embed.fields)
    assert "\n".join(f.value for f in embed.fields).splitlines() == lines  # none lost, in order
    short = render.discord.Embed()
    render.add_lines(short, "Standing", ["Ann: +1", "Ben: -1"])
    assert [(f.name, f.value, f.inline) for f in short.fields] == [("Standing", "Ann: +1\nBen: -1",
                                                                     True)]


@pytest.mark.parametrize("preset,options,words", [
    ("jaques", {"chips": 2}, "no chips left"), ("oldway", {}, "no lives left")])
def test_a_player_out_of_the_game_is_told_so_not_that_they_sit_out_a_deal(preset, options, words):
    """A jaques player who lost their last chip (an oldway player their last life)
    was told "you sit out this deal" at every later deal, never that they were out."""
    from bot.engine import Game, get_preset, shuffled_deck
    from bot.engine.easy import choose
    from tests.ui.test_words import live_table

    rng = random.Random(4)
    game = Game(get_preset(preset).with_options(options), 4, 0)
    for _ in range(400):
        deal = game.start_deal(shuffled_deck(rng), rng=rng)
        while not deal.finished:
            seat = deal.to_act
            deal.act(seat, choose(deal.observation(seat)))
        if game.complete or len(game.in_play) < game.n:
            break
    assert not game.complete and len(game.in_play) < game.n
    deal = game.start_deal(shuffled_deck(rng), rng=rng)
    live = live_table(game, ["Ann", "Ben", "Cat", "Dan"], humans=4)
    [out] = [s for s in range(game.n) if s not in game.in_play][:1]
    text = render.hand_text(live, deal.observation(out))
    assert words in text and "sit out this deal" not in text, text
    [playing] = [s for s in game.in_play][:1]
    assert "out of the game" not in render.hand_text(live, deal.observation(playing))

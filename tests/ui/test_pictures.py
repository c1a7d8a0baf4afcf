"""Card pictures (bot/ui/pictures.py): real PNGs of sensible size, built from the
viewer's observation and nothing else.

The leak tests take real deals of every preset, then make other deals with the
same observation — the cards hidden from the viewer (other seats' hands, the
stock, a face-down waste) dealt out differently — and demand the very same bytes.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot import i18n
from bot.engine import (
    PRESETS,
    Decision,
    Game,
    describe,
    easy,
    get_preset,
    parse_card,
    shuffled_deck,
)
from bot.ui import cards, fonts, pictures, png, status, words
from bot.ui import names as names_module
from bot.ui.cards import hand_label
from tests.profiles import examples

PRESET_NAMES = sorted(PRESETS)
NAMES = ["Ann", "Ben", "Cat", "Dora Østergård", "🤖 Eli", "Fay", "Gus", "Hal", "Ivy", "Jo",
         "Kai", "Lu"]
#: moves played into a deal before a picture is taken (0: just dealt)
MOMENTS = (0, 1, 3, 6)


def play(preset: str, n: int, seed: int, moves: int) -> tuple[Game, object]:
    """A game of ``preset`` with ``n`` seats whose first deal the AI has played for
    ``moves`` moves (fewer if it ends)."""
    rng = random.Random(f"{preset} {n} {seed}")
    game = Game(get_preset(preset), n, seed % n)
    deal = game.start_deal(shuffled_deck(rng), rng=rng)
    for _ in range(moves):
        if deal.finished:
            break
        seat = deal.to_act
        deal.act(seat, easy.choose(deal.observation(seat)))
    return game, deal


def finish(deal: object) -> None:
    while not deal.finished:
        seat = deal.to_act
        deal.act(seat, easy.choose(deal.observation(seat)))


def open_deals() -> Iterator[tuple[str, Game, object]]:
    """Deals of every preset at several moments, with 3 to 5 seats."""
    for preset in PRESET_NAMES:
        for i, moves in enumerate(MOMENTS):
            game, deal = play(preset, 3 + i % 3, i, moves)
            if not deal.finished:
                yield preset, game, deal


def rehide(deal: object, keep: set[int], rng: random.Random) -> object:
    """A copy of ``deal`` whose hidden cards are dealt out afresh: the cards of the
    seats not in ``keep``, the stock and a face-down waste change places, except
    those that have lain face up (``exposed``) and a pending offer's seat."""
    clone = copy.deepcopy(deal)
    pending = getattr(clone, "pending", None)
    if pending is not None:
        keep = keep | {pending.seat}
    exposed = getattr(clone, "exposed", set())
    containers = [clone.hands[s] for s in range(clone.n) if s not in keep]
    stock = list(clone.stock)
    containers.append(stock)
    waste = getattr(clone, "waste", None)
    if waste is not None and clone.rules.traded_card != "face_up":
        containers.append(waste)
    slots = [(box, i) for box in containers for i, c in enumerate(box) if c not in exposed]
    cards = [box[i] for box, i in slots]
    rng.shuffle(cards)
    for (box, i), card in zip(slots, cards, strict=True):
        box[i] = card
    clone.stock.clear()
    clone.stock.extend(stock)
    return clone


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.format == "PNG"
    return img


# ------------------------------------------------------------------- pictures
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_picture_is_a_png_of_sensible_size(preset):
    for n in (3, PRESETS[preset].max_players):
        game, deal = play(preset, n, 1, 4)
        seat = deal.to_act if deal.to_act is not None else deal.dealer
        hand = decode(pictures.hand_png(deal.observation(seat)))
        assert 500 <= hand.width <= 800 and 250 <= hand.height <= 400
        table = decode(pictures.table_png(deal.observation(None), NAMES[:n], game.running_balances))
        assert table.width == 800 and 400 <= table.height <= 800
        finish(deal)
        showdown = decode(pictures.showdown_png(deal.observation(None), NAMES[:n]))
        assert 550 <= showdown.width <= 1200 and 300 <= showdown.height <= 900
        for encoded in (pictures.hand_png(deal.observation(seat)),
                        pictures.table_png(deal.observation(None), NAMES[:n]),
                        pictures.showdown_png(deal.observation(None), NAMES[:n])):
            assert len(encoded) <= 150 * 1024


def test_different_hands_give_different_pictures():
    seen: dict[bytes, tuple[int, ...]] = {}
    for preset in ("foster", "jaques", "foster-more"):
        _, deal = play(preset, 6, 2, 0)
        for seat in range(6):
            obs = deal.observation(seat)
            png = pictures.hand_png(obs)
            assert png not in seen, (obs.hand, seen.get(png))
            seen[png] = tuple(sorted(obs.hand))
    assert len(seen) == 18


def test_a_hand_picture_and_its_description():
    _, deal = play("foster", 3, 0, 0)
    obs = deal.observation(1)
    seq = dataclasses.replace(obs, hand=tuple(parse_card(c) for c in ("8s", "6s", "7s")))
    assert pictures.hand_alt(seq) == "Your hand: 8♤ 7♤ 6♤ — sequence to 8."
    text = pictures.hand_alt(obs)
    assert text == f"Your hand: {hand_label(obs.hand)} — {describe(obs.hand)}."
    assert pictures.hand_png(seq) != pictures.hand_png(obs)
    # the order the engine holds the cards in does not matter
    same = dataclasses.replace(seq, hand=tuple(reversed(seq.hand)))
    assert pictures.hand_png(same) == pictures.hand_png(seq)


def test_a_kept_hand_picture_is_only_ever_the_same_picture():
    """Hand pictures and descriptions are kept (``pictures.HandParts`` with inks,
    deck and language): a hand drawn again is the kept bytes, and one that
    differs in anything drawn (a card, the drawn card, the language, the deck's
    suits) is drawn anew, exactly as with nothing kept."""
    from bot.i18n import deck
    _, deal = play("foster", 4, 1, 0)
    obs, other = deal.observation(0), deal.observation(1)
    twin = dataclasses.replace(other, hand=obs.hand)  # another seat holding the same cards
    drawn = dataclasses.replace(obs, drawn=other.hand[0])
    cases = [(o, lang, d) for o in (obs, other, twin, drawn) for lang in ("en", "de")
             for d in (deck.TWO, deck.FOUR)]
    def inks(d: str) -> pictures.Ink:
        return pictures.FOUR_COLOUR_INK if d == deck.FOUR else pictures.SUIT_INK
    kept = []
    for o, lang, d in cases * 2:
        with i18n.use(lang), deck.use(d):
            kept.append((pictures.hand_png(o, inks(d)), pictures.hand_alt(o)))
    fresh = []
    for o, lang, d in cases:
        pictures.clear_cache()
        with i18n.use(lang), deck.use(d):
            fresh.append((pictures.hand_png(o, inks(d)), pictures.hand_alt(o)))
    assert kept == fresh * 2
    assert kept[0][0] is kept[len(cases)][0]  # drawn once
    assert kept[0] == kept[8]  # the same cards make the same picture, whoever holds them
    assert len({png for png, _ in fresh}) == len(cases) - 4  # all else differs
    assert fresh[0][1] != fresh[2][1] and fresh[0][0] != fresh[1][0]  # language, deck


def test_a_blind_hand_shows_backs_and_a_drawn_card_is_set_apart():
    _, deal = play("oldway", 4, 0, 0)
    blind = deal.observation(deal.dealer)
    assert blind.blind and blind.hand is None
    assert "not looked at yet" in pictures.hand_alt(blind)
    decode(pictures.hand_png(blind))
    _, deal = play("jaques", 4, 0, 0)
    seat = deal.to_act
    plain = decode(pictures.hand_png(deal.observation(seat)))
    deal.act(seat, Decision("draw"))
    drew = deal.observation(seat)
    assert drew.drawn is not None
    assert pictures.hand_alt(drew).endswith(f"You drew {hand_label([drew.drawn])}.")
    assert decode(pictures.hand_png(drew)).width > plain.width


def test_pictures_refuse_the_wrong_observation():
    _, deal = play("foster", 3, 0, 0)
    with pytest.raises(ValueError):
        pictures.hand_png(deal.observation(None))
    with pytest.raises(ValueError):
        pictures.table_png(deal.observation(0), NAMES[:3])
    with pytest.raises(ValueError):
        pictures.showdown_png(deal.observation(None), NAMES[:3])


def test_pictures_are_cached_by_content():
    game, deal = play("widow", 4, 0, 2)
    obs = deal.observation(None)
    first = pictures.table_png(obs, NAMES[:4], game.running_balances)
    assert pictures.table_png(copy.deepcopy(obs), list(NAMES[:4]), list(game.running_balances)) \
        is first
    assert pictures.table_png(obs, ["Zed", *NAMES[1:4]], game.running_balances) != first
    pictures.clear_cache()
    assert pictures.table_png(obs, NAMES[:4], game.running_balances) == first


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_table_put_together_from_cached_parts_is_the_one_drawn_afresh(preset):
    """Issue 9: a move redraws only the parts of the table it changed; the
    picture must still be, byte for byte, the one drawn with nothing cached.
    Nine seats put plates on the sides, where a tag's pill reaches the plate
    below."""
    compared = 0
    for n in (4, 9):
        game, deal = play(preset, n, 1, 0)
        pictures.clear_cache()
        while True:
            obs = deal.observation(None)
            pictures.clear_cache(parts=False)  # parts of the states before stay cached
            warm = pictures.table_png(obs, NAMES[:n], game.running_balances)
            pictures.clear_cache()
            assert pictures.table_png(obs, NAMES[:n], game.running_balances) == warm
            compared += 1
            if deal.finished:
                break
            seat = deal.to_act
            deal.act(seat, easy.choose(deal.observation(seat)))
    assert compared >= 6


def on_one_canvas(scene: pictures.TableScene) -> Image.Image:
    """The table picture drawn part after part on one canvas, as before issue 9,
    mapped to the palette and back to RGB (what the PNG decodes to)."""
    n = len(scene.seats)
    frame = pictures._frame(pictures._sides(n))
    img = pictures._table_ground(frame.sides, frame.height
                                 + pictures._shown_height(len(scene.shown)))[0].copy()
    draw = ImageDraw.Draw(img)
    pictures._draw_table_header(img, scene.title, scene.status)
    pictures._draw_centre(img, draw, frame, scene.pool, scene.stock, scene.middle_label,
                          scene.middle, scene.discard, scene.note)
    for seat, (x, y) in zip(scene.seats, pictures._seat_boxes(n, frame.top, frame.bottom),
                            strict=True):
        pictures._draw_seat(img, draw, seat, x, y)
    if scene.shown:
        pictures._draw_shown(img, scene.shown, frame.height)
    return pictures._quantize(img).convert("RGB")


@pytest.mark.parametrize("preset", ["oldway", "jaques", "parlett"])
def test_the_parts_of_a_table_give_the_picture_drawn_on_one_canvas(preset):
    """Pasted side by side, the cached parts give the pixels of drawing the whole
    table on one canvas, the plates overlapping included: on the left side of
    nine seats, seat 3's tag reaches the gold outline of seat 2 (to act)."""
    game, deal = play(preset, 9, 2, 4)
    scene = pictures.table_scene(deal.observation(None), NAMES[:9], game.running_balances)
    seats = list(scene.seats)
    seats = [dataclasses.replace(s, acting=False, tag="") for s in seats]
    seats[2] = dataclasses.replace(seats[2], acting=True, tag="to act")
    seats[3] = dataclasses.replace(seats[3], tag="knocked")
    for variant in (scene, dataclasses.replace(scene, seats=tuple(seats))):
        pictures.clear_cache()
        png = pictures.draw_table(variant)
        assert decode(png).convert("RGB").tobytes() == on_one_canvas(variant).tobytes()


@pytest.mark.parametrize(("xy", "anchor"), [((10, 20), "la"), ((40, 30), "lm"),
                                            ((100.4, 30), "mm"), ((190, 25.7), "rm"),
                                            ((60, 12), "mt")])
def test_text_from_a_cached_mask_is_drawn_as_pillow_draws_it(xy, anchor):
    for text, font in (("Émilie · −3 ±0 ×7", pictures._font(21, True)),
                       ("Pool 12 · stock 7", pictures._font(17)), ("D", pictures._font(15, True))):
        pillow = Image.new("RGB", (200, 50), pictures.PLATE)
        ImageDraw.Draw(pillow).text(xy, text, font=font, fill=pictures.GOLD, anchor=anchor)
        ours = Image.new("RGB", (200, 50), pictures.PLATE)
        pictures._text(ours, xy, text, font, pictures.GOLD, anchor)
        assert ours.tobytes() == pillow.tobytes()
        assert ours.tobytes() != Image.new("RGB", (200, 50), pictures.PLATE).tobytes()


@pytest.mark.parametrize("sides", [0, 1, 2])
def test_words_pasted_as_tiles_are_the_words_drawn_and_mapped(sides):
    """``_words_part`` pastes texts as tiles mapped alone where each lies on plain
    table; where two meet, or one crosses the table's rim, it draws them: the
    pixels are those of ``_text`` on the bare table, mapped, in every case."""
    frame = pictures._frame(sides)
    left, top = frame.centre[:2]
    box = (left - 20, top - 40, left + 300, top + 60)  # crosses the rim (or the felt's edge)
    bold, small = pictures._font(21, True), pictures._font(17)
    cases = [
        [((150, 70), "Pool 12", bold, pictures.WHITE, "mm"), ((260, 90), "stock 7", small,
                                                                pictures.SOFT, "mm")],
        [((150, 70), "Pool 12", bold, pictures.WHITE, "mm"), ((160, 74), "Ünder", small,
                                                                pictures.GOLD, "lm")],  # meet
        [((20, 30), "on the rim 王", bold, pictures.GOLD, "lm")],
        [((290, 70), "cut at the edge", small, pictures.SOFT, "lm")],
        [((-90, 70), "wholly outside", small, pictures.SOFT, "lm"),
         ((150, 70), "Pool 3", bold, pictures.WHITE, "mm")],
    ]
    for texts in cases:
        def paint(img, draw, texts=texts):
            for point, text, font, fill, anchor in texts:
                pictures._text(img, point, text, font, fill, anchor)
        drawn = pictures._part(sides, box, paint)
        ours = pictures._words_part(sides, box, texts)
        assert ours.size == drawn.size
        assert ours.tobytes() == drawn.tobytes(), texts
        bare = pictures._part(sides, box, lambda img, draw: None)
        assert ours.tobytes() != bare.tobytes()


def test_names_lose_only_what_no_font_can_draw():
    """Emoji, CJK and the rest are drawn (tests/ui/test_name_scripts.py); a private-use
    or unassigned code point and a control character are not, nor a lone joiner's gap;
    a name with nothing drawable left is drawn as its seat (``Seat 6``)."""
    names = NAMES[:4] + ["\ue000🤖\x07 Eli\U000e0fff", "\u200d\U000f0000"]
    scene = pictures.table_scene(play("foster", 6, 0, 0)[1].observation(None), names)
    assert [s.name for s in scene.seats] == ["Ann", "Ben", "Cat", "Dora Østergård", "🤖 Eli",
                                             "Seat 6"]


# --------------------------------------------------------------------- leaks
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_table_picture_sees_no_hidden_card(preset):
    rng = random.Random(preset)
    checked = 0
    for name, game, deal in open_deals():
        if name != preset:
            continue
        public = deal.observation(None)
        pictures.clear_cache()
        png = pictures.table_png(public, NAMES[:deal.n], game.running_balances)
        for _ in range(3):
            other = rehide(deal, set(), rng)
            assert other.hands != deal.hands
            assert other.observation(None) == public
            pictures.clear_cache()
            assert pictures.table_png(other.observation(None), NAMES[:deal.n],
                                      game.running_balances) == png
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_hand_picture_sees_no_other_hand(preset):
    rng = random.Random(preset)
    checked = changed = 0
    for name, _, deal in open_deals():
        if name != preset:
            continue
        for seat in deal.active:
            mine = deal.observation(seat)
            pictures.clear_cache()
            png = pictures.hand_png(mine)
            other = rehide(deal, {seat}, rng)
            assert [h for s, h in enumerate(other.hands) if s != seat] != \
                [h for s, h in enumerate(deal.hands) if s != seat]
            assert other.observation(seat) == mine
            pictures.clear_cache()
            assert pictures.hand_png(other.observation(seat)) == png
            checked += 1
            # the control: when the seat's own cards change, so does its picture
            mixed = rehide(deal, set(), rng)
            if sorted(mixed.hands[seat]) != sorted(deal.hands[seat]):
                changed += pictures.hand_png(mixed.observation(seat)) != png
    assert checked >= 9
    assert changed >= checked // 2


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_showdown_picture_shows_every_hand_and_the_winner(preset):
    _, deal = play(preset, 4, 3, 0)
    finish(deal)
    obs = deal.observation(None)
    scene = pictures.showdown_scene(obs, NAMES[:4])
    sd = obs.showdown
    assert [r.cards for r in scene.rows] == [tuple(sorted(h, reverse=True)) for h in sd.hands]
    assert [r.category for r in scene.rows] == [
        describe(h, obs.rules.ranking) if h else "sits out" for h in sd.hands]
    assert [r.winner for r in scene.rows] == [s == sd.winner for s in range(4)]
    assert [r.delta for r in scene.rows] == list(obs.delta)
    decode(pictures.showdown_png(obs, NAMES[:4]))


def test_pictures_import_nothing_from_discord_or_the_bot():
    """The pictures, their fonts (bot/ui/fonts.py), their PNG writer (bot/ui/png.py)
    the status line they share with the table message (bot/ui/status.py) and the
    cards' text labels (bot/ui/cards.py) import
    the engine and each other only, the words of their labels (bot/i18n's
    catalogs and bot/ui/words.py, neither of which imports discord) and what tells
    look-alike names apart (bot/ui/names.py, which imports no discord either)."""
    for module in (pictures, fonts, png, status, words, cards, names_module):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        roots = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                names = {alias.name for alias in node.names} if not node.module else set()
                roots.add(("." * node.level) + (node.module or "") + "".join(sorted(names)))
        assert not roots & {"discord", "aiosqlite", "sqlite3", "asyncio"}
        assert {r for r in roots if r.startswith(".")} <= {"..engine", "..engine.cards", ".cards",
                                                             ".fonts", ".png", ".status", ".words",
                                                             ".names", "..i18n"}


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 40), st.integers(1, 30), st.integers(1, 256), st.randoms(use_true_random=False))
def test_the_png_writer_gives_back_every_pixel_and_colour(width, height, colours, rnd):
    """bot/ui/png.py: what any reader (here Pillow's) decodes is the picture, index for
    index, with its palette."""
    img = Image.new("P", (width, height))
    img.putdata([rnd.randrange(colours) for _ in range(width * height)])
    palette = [rnd.randrange(256) for _ in range(3 * colours)]
    img.putpalette(palette)
    back = Image.open(io.BytesIO(png.encode(img, colours)))
    assert back.mode == "P" and back.size == (width, height)
    assert back.tobytes() == img.tobytes()
    assert back.getpalette()[:3 * colours] == palette


def test_the_png_writer_refuses_what_is_not_a_palette_picture():
    with pytest.raises(ValueError, match="palette"):
        png.encode(Image.new("RGB", (2, 2)))


def test_the_png_writer_takes_rows_as_they_are_written():
    """``png.encode_rows``: rows of a filter byte 0 and the indices, read from a
    bytearray as a picture's canvas holds them (``pictures._canvas``); rows of
    the wrong length are refused."""
    rows = bytearray()
    for y in range(5):
        rows += bytes([0]) + bytes((x * y) % 3 for x in range(7))
    palette = bytes([10, 20, 30, 40, 50, 60, 70, 80, 90])
    back = Image.open(io.BytesIO(png.encode_rows(rows, 7, 5, palette)))
    assert back.size == (7, 5)
    assert back.tobytes() == bytes((x * y) % 3 for y in range(5) for x in range(7))
    assert back.getpalette()[:9] == list(palette)
    with pytest.raises(ValueError, match="rows"):
        png.encode_rows(rows[:-1], 7, 5, palette)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_state_of_a_deal_put_together_from_parts_is_the_one_canvas(preset):
    """Issue 22: the parts (a plate on its cached bare plate, the header's title
    and status, the centre's three bands) give, at every state of a deal, the
    pixels of drawing the whole table on one canvas: no part draws outside its
    box."""
    game, deal = play(preset, 7, 3, 0)
    compared = 0
    while True:
        scene = pictures.table_scene(deal.observation(None), NAMES[:7], game.running_balances,
                                     title=f"Table 12 · {preset} · deal 3 of 14")
        png = pictures.draw_table(scene)
        assert decode(png).convert("RGB").tobytes() == on_one_canvas(scene).tobytes()
        compared += 1
        if deal.finished:
            break
        seat = deal.to_act
        deal.act(seat, easy.choose(deal.observation(seat)))
    assert compared >= 3


@pytest.mark.parametrize("preset", ["oldway", "jaques", "parlett"])
def test_a_table_drawn_in_one_language_never_shows_the_parts_of_another(preset):
    """The table's parts are cached, and some draw words of their own ("no
    lives", the stock's and discard pile's counts, the cards traded face up): a
    picture drawn in English after the same table was drawn in German must be the
    English one drawn with nothing cached, and the German one must differ."""
    differed = 0
    for n in (4, 9):
        game, deal = play(preset, n, 1, 0)
        while True:
            obs = deal.observation(None)
            pictures.clear_cache()
            fresh = pictures.table_png(obs, NAMES[:n], game.running_balances)
            pictures.clear_cache()
            with i18n.use("de"):
                german = pictures.table_png(obs, NAMES[:n], game.running_balances)
            assert pictures.table_png(obs, NAMES[:n], game.running_balances) == fresh
            differed += german != fresh
            if deal.finished:
                break
            seat = deal.to_act
            deal.act(seat, easy.choose(deal.observation(seat)))
    assert differed >= 2


def showdown_on_one_canvas(scene: pictures.ShowdownScene) -> Image.Image:
    """The showdown picture drawn on one RGB canvas — header, every row on its
    plate with its cards and the dealer's disc, footer — mapped to the palette
    and back to RGB (what the PNG decodes to)."""
    png_img = decode(pictures.draw_showdown(scene))
    img = Image.new("RGB", png_img.size, pictures.FELT)
    n = len(scene.rows)
    per_column = -(-n // (1 if n <= 6 else 2))
    row_h = pictures.ROW_H + (pictures.PAY_H if any(r.payments for r in scene.rows) else 0)
    width = img.width
    title = pictures._fit(scene.title, pictures._font(24, True), width // 2)
    pictures._text(img, (pictures.MARGIN + 4, pictures.MARGIN + 14), title,
                   pictures._font(24, True), pictures.GOLD, "lm")
    pictures._text(img, (pictures.MARGIN + 4 + pictures._length(pictures._font(24, True), title)
                         + 14, pictures.MARGIN + 15),
                   pictures._fit(scene.how, pictures._font(20), width // 2), pictures._font(20),
                   pictures.SOFT, "lm")
    pictures._text(img, (pictures.MARGIN + 4, pictures.MARGIN + 48),
                   pictures._fit(scene.result, pictures._font(22, True),
                                 width - 2 * pictures.MARGIN),
                   pictures._font(22, True), pictures.WHITE, "lm")
    for i, row in enumerate(scene.rows):
        col, r = divmod(i, per_column)
        x = pictures.MARGIN + col * (pictures.COLUMN_W + pictures.GAP)
        y = 86 + r * (row_h + 8)
        plate = pictures._row_plate(row.winner, row_h).copy()
        pictures._draw_showdown_row(plate, row, (0, 0), with_cards=True)
        img.paste(plate, (x - 3, y - 3))
    rows_end = 86 + per_column * (row_h + 8)
    for i, line in enumerate(scene.footer):
        pictures._text(img, (pictures.MARGIN + 4, rows_end - 4 + 14 + 28 * i),
                       pictures._fit(line, pictures._font(19), width - 2 * pictures.MARGIN),
                       pictures._font(19), pictures.WHITE, "lm")
    return pictures._quantize(img).convert("RGB")


@pytest.mark.parametrize(("preset", "n"), [("foster-more", 12), ("jaques", 5), ("oldway", 8),
                                           ("parlett", 4)])
def test_the_showdown_from_tiles_is_the_one_drawn_on_one_canvas(preset, n):
    """Issue 22: the showdown's rows, header and footer pasted straight on its
    canvas as tiles (the words, the cards, the dealer's disc on a row's plain
    fill) give the pixels of drawing the whole showdown on one canvas, with
    and without payments."""
    game, deal = play(preset, n, 5, 0)
    finish(deal)
    obs = deal.observation(None)
    for payments in (None, [f"pool {d}" if d else "" for d in obs.delta]):
        pictures.clear_cache()
        scene = pictures.showdown_scene(obs, NAMES[:n], title="Showdown · deal 4",
                                        payments=payments)
        assert any(row.dealer for row in scene.rows)
        png = pictures.draw_showdown(scene)
        assert decode(png).convert("RGB").tobytes() == showdown_on_one_canvas(scene).tobytes()


def test_tables_drawn_in_turn_from_their_last_canvases_are_the_ones_drawn_afresh():
    """Issue 22: a table's next picture starts from the canvas of its last one
    and pastes again only the parts that changed. Two tables of the same size
    drawn in turn (and a third whose picture grows with cards traded face up)
    must each give, state after state, the pixels of the table drawn on one
    canvas."""
    tables = [("foster", 9, "Table 1", *play("foster", 9, 7, 0)),
              ("foster", 9, "Table 2", *play("foster", 9, 8, 0)),
              ("parlett", 5, "Table 3", *play("parlett", 5, 9, 0))]
    pictures.clear_cache()
    compared = 0
    for _ in range(40):
        for _preset, n, title, game, deal in tables:
            if deal.finished:
                continue
            obs = deal.observation(None)
            pictures.clear_cache(parts=False)  # the last canvases stay
            reused = any(key[2] == title for key in pictures._LAST_FRAMES)
            warm = pictures.table_png(obs, NAMES[:n], game.running_balances, title=title)
            scene = pictures.table_scene(obs, NAMES[:n], game.running_balances, title=title)
            assert decode(warm).convert("RGB").tobytes() == on_one_canvas(scene).tobytes()
            compared += reused
            seat = deal.to_act
            deal.act(seat, easy.choose(deal.observation(seat)))
    assert compared >= 30
    # on the left side of nine seats, seat 3's pill reaches seat 2's gold outline:
    # seat 3 changing alone puts the ground back under seat 2's lower edge too
    game, deal = play("oldway", 9, 2, 4)
    scene = pictures.table_scene(deal.observation(None), NAMES[:9], game.running_balances)
    seats = [dataclasses.replace(s, acting=False, tag="") for s in scene.seats]
    seats[2] = dataclasses.replace(seats[2], acting=True, tag="to act")
    seats[3] = dataclasses.replace(seats[3], tag="knocked")
    pictures.clear_cache()
    for figure in ("+1", "−12", "+3"):
        seats[3] = dataclasses.replace(seats[3], figure=figure)
        variant = dataclasses.replace(scene, seats=tuple(seats))
        png = pictures.draw_table(variant)
        assert decode(png).convert("RGB").tobytes() == on_one_canvas(variant).tobytes()


def test_a_seat_kept_from_the_last_picture_is_drawn_in_the_new_language():
    """Issue 22: a seat the very same as in the table's last picture keeps its
    plate only in the same language: the same seat ("no lives" on its plate,
    words not among its fields) drawn next in German gives the German plate,
    and a plate whose box shrinks (no longer to act) leaves no gold behind."""
    game, deal = play("oldway", 5, 3, 2)
    pictures.clear_cache()
    scene = pictures.table_scene(deal.observation(None), NAMES[:5], game.running_balances,
                                 title="Table 9")
    lifeless = pictures._seat("Ann", "", 0, 0, "", False, False, True)
    seats = list(scene.seats)
    seats[0] = lifeless
    seats[1] = pictures._seat(*(getattr(seats[1], f) for f in pictures._SEAT_FIELDS[:6]),
                              True, True)
    english = dataclasses.replace(scene, seats=tuple(seats), language="en")
    pictures.draw_table(english)
    seats[1] = pictures._seat(*(getattr(seats[1], f) for f in pictures._SEAT_FIELDS[:6]),
                              False, True)
    with i18n.use("de"):
        german = dataclasses.replace(english, seats=tuple(seats), language="de")
        png = pictures.draw_table(german)
        drawn = on_one_canvas(german)
    assert german.seats[0] is english.seats[0]
    assert decode(png).convert("RGB").tobytes() == drawn.tobytes()
    in_english = dataclasses.replace(german, language="en")
    assert decode(pictures.draw_table(in_english)).convert("RGB").tobytes() \
        == on_one_canvas(in_english).tobytes() != drawn.tobytes()


def test_cards_and_shapes_as_tiles_are_the_ones_drawn_and_mapped():
    """``_layered_part`` pastes the cards of the table's centre and the cards
    traded face up as tiles on plain ground (cards that meet as one tile);
    where a tile would cross the table's rim, or meet a word, it draws the
    part: the pixels are those of drawing it and mapping, in every case."""
    frame = pictures._frame(1)
    left, top = frame.centre[:2]
    box = (left - 20, top - 40, left + 300, top + 120)  # crosses the rim
    layer = pictures.CardLayer
    cases = [
        ([layer(None, 76, 150, 60), layer(None, 76, 155, 55), layer(12, 76, 240, 60)], []),
        ([pictures.OutlineLayer((150, 60, 226, 166), 7, pictures.SOFT, 2),
          layer(40, 76, 240, 60)], []),
        ([layer(3, 76, 2, 10)], []),  # on the rim: drawn
        ([layer(3, 76, 150, 60)], [((160, 70), "over", pictures._font(17), pictures.SOFT,
                                    "lm")]),  # meets a word: drawn
        ([layer(3, 56, 150, 60), layer(4, 56, 176, 60), layer(5, 56, 202, 60)],
         [((150, 40), "Traded", pictures._font(18, True), pictures.SOFT, "lm")]),
    ]
    for layers, texts in cases:
        def paint(img, draw, layers=layers, texts=texts):
            for one in layers:
                pictures._paint_layer(img, draw, one)
            for point, text, font, fill, anchor in texts:
                pictures._text(img, point, text, font, fill, anchor)
        drawn = pictures._part(1, box, paint)
        ours = pictures._layered_part(1, box, layers, texts)
        assert ours.tobytes() == drawn.tobytes(), (layers, texts)
        felt = pictures._layered_part(None, (0, 0, 400, 200), layers, texts)
        on_felt = Image.new("RGB", (400, 200), pictures.FELT)
        paint(on_felt, ImageDraw.Draw(on_felt))
        assert felt.tobytes() == pictures._part_of(on_felt).tobytes(), (layers, texts)


def test_a_seat_and_a_row_made_fast_are_the_ones_made_as_usual():
    made = pictures._seat("Ann", "+3", 1, 2, "to act", True, True, True)
    usual = pictures.Seat("Ann", "+3", 1, 2, "to act", True, True, True)
    assert made == usual and hash(made) == hash(usual) and repr(made) == repr(usual)
    assert dataclasses.replace(made, tag="") == pictures.Seat("Ann", "+3", 1, 2, "", True, True,
                                                              True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.tag = "knocked"
    game, deal = play("oldway", 5, 1, 0)
    finish(deal)
    obs = deal.observation(None)
    for row in pictures.showdown_scene(obs, NAMES[:5]).rows:
        usual_row = pictures.Row(*(getattr(row, f.name) for f in dataclasses.fields(row)))
        assert row == usual_row and hash(row) == hash(usual_row) and repr(row) == repr(usual_row)

"""Names in every common script are drawn as written (bot/ui/fonts.py, bot/ui/pictures.py).

Each character of a name is drawn by a font whose character map really has it
(read here on its own with fontTools), so no glyph of a name in these scripts
falls back to ``?`` or to the empty box of ``.notdef``; the table and showdown
pictures draw such names, and the status line names the seat to act.
"""

from __future__ import annotations

import dataclasses
import io
import random
from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops

from bot.engine import Game, easy, get_preset, shuffled_deck
from bot.ui import fonts, pictures

#: script -> names in it
SCRIPT_NAMES = {
    "latin": ["Zoë Łukasz", "Ørjan Çağrı", "Nguyễn Thị Hằng", "Ñoño Ångström"],
    "greek": ["Νίκος Παπαδόπουλος", "Ζωή"],
    "cyrillic": ["Дмитрий Иванов", "Олена Ґудзь"],
    "arabic": ["محمد عبد الله", "شاہد ڈار", "فاطمة"],
    "hebrew": ["שרה כהן", "שָׁלוֹם"],
    "devanagari": ["राहुल शर्मा", "क्षत्रिय", "प्रिया"],
    "thai": ["สมชาย ใจดี", "ส้มตำ"],
    "chinese simplified": ["王小明", "李华华", "张伟"],
    "chinese traditional": ["陳大文", "臺灣 黃國強"],
    "japanese kana": ["ひらがな", "カタカナ", "さくら ｻｸﾗ"],
    "japanese kanji": ["山田太郎"],
    "korean": ["김민준", "이서연"],
    "emoji": ["🎲🎲🎲", "🤖", "😀", "🇫🇷", "👨\u200d👩\u200d👧", "👍🏽", "1\ufe0f\u20e3", "❤\ufe0f"],
    "mixed": ["🤖 Ada", "Ada 王", "محمد 🎲", "김 Kim"],
}
ALL_NAMES = [(script, name) for script, names in SCRIPT_NAMES.items() for name in names]
#: the fonts names are drawn in: the plates' and rows' bold, the footer's regular
NAME_FONTS = [(21, True), (22, True), (20, False), (16, False)]
#: the issue's names, and two that need shaping
ISSUE_NAMES = ["王小明", "李华华", "🎲🎲🎲", "محمد عبد الله", "राहुल शर्मा"]


@cache
def cmap(path: str) -> frozenset[int]:
    """The code points font ``path`` maps to a real glyph (not ``.notdef``)."""
    font = TTFont(path)
    return frozenset(code for code, glyph in font.getBestCmap().items() if glyph != ".notdef")


@pytest.mark.parametrize(("script", "name"), ALL_NAMES)
def test_every_character_of_a_name_is_drawn_by_a_font_that_has_it(script, name):
    assert pictures._clean(name) == name  # nothing dropped, no "?"
    for size, bold in NAME_FONTS:
        runs = fonts.runs(name, pictures._font(size, bold))
        assert "".join(part for part, _ in runs) == name
        for part, font in runs:
            assert font.size == size
            assert Path(font.path).parent == fonts.ASSETS
            missing = [ch for ch in part if ord(ch) not in cmap(font.path)]
            assert not missing, (script, name, Path(font.path).name, missing)


def test_latin_greek_and_cyrillic_stay_in_dejavu():
    for script in ("latin", "greek", "cyrillic"):
        for name in SCRIPT_NAMES[script]:
            for size, bold in NAME_FONTS:
                font = pictures._font(size, bold)
                assert fonts.runs(name, font) == ((name, font),)


def test_a_word_of_a_shaped_script_is_drawn_in_one_font():
    """DejaVu has most Arabic letters but not ہ and ڈ (Urdu): the whole name goes to
    Noto Sans Arabic, so its letters join, rather than a word split between fonts."""
    for name in ("شاہد ڈار", "क्षत्रिय", "ส้มตำ"):
        runs = fonts.runs(name, pictures._font(21, True))
        assert len(runs) == 1 and Path(runs[0][1].path).name.startswith("NotoSans")


def test_emoji_sequences_and_flags_are_one_cluster():
    assert fonts.clusters("👨\u200d👩\u200d👧🇫🇷👍🏽e\u0301") == (
        "👨\u200d👩\u200d👧", "🇫🇷", "👍🏽", "e\u0301")


def test_the_shipped_fonts_cover_the_common_cjk_blocks_and_kana_in_both_weights():
    """A name may use any CJK ideograph: the subset keeps whole blocks (the block's
    last 16, U+9FF0-9FFF of Unicode 13 and 14, are in no Noto Sans CJK yet)."""
    wanted = {*range(0x4E00, 0x9FF0), *range(0xAC00, 0xD7A4), *range(0x3041, 0x3097),
              *range(0x30A1, 0x30FB)}
    for bold in (False, True):
        have = set().union(*(fonts.coverage(file) for file in fonts.chain(bold)))
        assert not wanted - have
    assert set().union(*map(fonts.coverage, fonts.chain(False))) == \
        set().union(*map(fonts.coverage, fonts.chain(True)))


def test_the_fonts_are_package_data_with_their_licences():
    pyproject = (Path(fonts.__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"bot.ui" = ["assets/*.ttf", "assets/*.otf", "assets/LICENSE-*.txt"]' in pyproject
    noto = (fonts.ASSETS / "LICENSE-Noto.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in noto
    assert (fonts.ASSETS / "LICENSE-DejaVu.txt").is_file()
    for family in fonts.FAMILIES:
        for file in (family.regular, family.bold):
            assert (fonts.ASSETS / file).is_file()
            assert file.startswith("DejaVu") or file in noto


# ------------------------------------------------------------------ pictures
def deal_at(n: int, moves: int = 0):
    rng = random.Random(f"scripts {n}")
    game = Game(get_preset("foster"), n, 0)
    deal = game.start_deal(shuffled_deck(rng), rng=rng)
    for _ in range(moves):
        seat = deal.to_act
        deal.act(seat, easy.choose(deal.observation(seat)))
    return game, deal


def finished(n: int):
    game, deal = deal_at(n)
    while not deal.finished:
        seat = deal.to_act
        deal.act(seat, easy.choose(deal.observation(seat)))
    return deal.observation(None)


def pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as img:
        return img.convert("RGB").tobytes()


def test_the_status_names_the_seat_to_act_as_written():
    """The issue: "To act: ?" for a name the bundled font lacked."""
    game, deal = deal_at(len(ISSUE_NAMES))
    obs = deal.observation(None)
    scene = pictures.table_scene(obs, ISSUE_NAMES, game.running_balances)
    assert [seat.name for seat in scene.seats] == ISSUE_NAMES
    assert scene.status == f"To act: {ISSUE_NAMES[obs.to_act]}"


@pytest.mark.parametrize("index", range(len(ISSUE_NAMES)))
def test_a_table_picture_draws_each_name(index):
    game, deal = deal_at(len(ISSUE_NAMES))
    obs = deal.observation(None)
    unknown = list(ISSUE_NAMES)
    unknown[index] = "?"
    png = pictures.table_png(obs, ISSUE_NAMES, game.running_balances)
    assert pixels(png) != pixels(pictures.table_png(obs, unknown, game.running_balances))


@pytest.mark.parametrize("index", range(len(ISSUE_NAMES)))
def test_a_showdown_picture_draws_each_name(index):
    obs = finished(len(ISSUE_NAMES))
    unknown = list(ISSUE_NAMES)
    unknown[index] = "?"
    payments = [f"pool 6 · {name}" for name in ISSUE_NAMES]
    png = pictures.showdown_png(obs, ISSUE_NAMES, payments=payments)
    assert pixels(png) != pixels(pictures.showdown_png(obs, unknown, payments=payments))


def test_every_script_draws_on_a_plate_without_error():
    game, deal = deal_at(12, 2)
    names = [name for _, name in ALL_NAMES]
    for start in range(0, len(names), 12):
        chunk = (names[start:start + 12] + ["Ann"] * 12)[:12]
        pictures.table_png(deal.observation(None), chunk, game.running_balances,
                           title=" · ".join(chunk[:3]))


# ------------------------------------------------------------------ fit
@pytest.mark.parametrize("name", ["王小明" * 8, "🎲" * 30, "👨\u200d👩\u200d👧" * 12,
                                  "Ada 王小明 Lovelace 李华华 Byron", "محمد عبد الله " * 4])
def test_a_long_name_in_several_fonts_is_cut_to_fit_between_clusters(name):
    font = pictures._font(21, True)
    room = pictures.PLATE_W - 24
    cut = pictures._fit(name, font, room)
    assert cut.endswith("…") and len(cut) < len(name)
    assert pictures._length(font, cut) <= room
    kept = cut[:-1].rstrip()
    assert fonts.clusters(kept) == fonts.clusters(name)[:len(fonts.clusters(kept))]
    # what is drawn is as wide as measured: the mask's ink ends within the room
    canvas = Image.new("RGB", (400, 40), pictures.PLATE)
    pictures._text(canvas, (10, 20), cut, font, pictures.WHITE, "lm")
    ink = ImageChops.difference(canvas, Image.new("RGB", canvas.size, pictures.PLATE)).getbbox()
    assert ink is not None and ink[2] <= 10 + room + 2


def test_a_name_that_fits_is_not_cut():
    font = pictures._font(21, True)
    for name in ISSUE_NAMES:
        assert pictures._fit(name, font, pictures.PLATE_W - 24) == name


# ------------------------------------------------------------------ drawing
@pytest.mark.parametrize("anchor", ["lm", "mm", "rm", "ls"])
def test_runs_are_placed_as_pillow_places_one_font(anchor):
    """The several-font path, given a text DejaVu draws alone, gives Pillow's pixels:
    a name in mixed scripts sits on the same baseline as one in Latin."""
    for size, bold in NAME_FONTS:
        font = pictures._font(size, bold)
        for fx, fy in ((0, 0), (0.25, 0.5), (0.75, 0.3)):
            one, ox, oy = pictures._text_mask("Dora Østergård", font, anchor, fx, fy)
            runs, rx, ry = pictures._runs_mask("Dora Østergård", font, anchor, fx, fy)
            a, b = Image.new("L", (400, 80)), Image.new("L", (400, 80))
            a.paste(one, (150 - ox, 40 - oy))
            b.paste(runs, (150 - rx, 40 - ry))
            assert a.tobytes() == b.tobytes()


def test_fallback_fonts_are_opened_only_for_names_that_need_them(monkeypatch):
    pictures.clear_cache(sprites=True)
    read, opened = [], []
    coverage, face = fonts.coverage, fonts.face
    monkeypatch.setattr(fonts, "coverage", lambda file: read.append(file) or coverage(file))
    monkeypatch.setattr(fonts, "face", lambda size, bold=False, index=0:
                        opened.append(index) or face(size, bold, index))
    game, deal = deal_at(5)
    obs = deal.observation(None)
    pictures.table_png(obs, ["Ann", "Zoë", "Νίκος", "Дмитрий", "Ben"], game.running_balances)
    assert set(read) <= {fonts.FAMILIES[0].regular, fonts.FAMILIES[0].bold}
    assert set(opened) == {0}
    pictures.table_png(obs, ["Ann", "王小明", "Cat", "Dan", "Eve"], game.running_balances)
    cjk = [i for i, family in enumerate(fonts.FAMILIES) if "CJK" in family.name]
    assert set(opened) == {0, *cjk}
    monkeypatch.undo()
    pictures.clear_cache(sprites=True)


def test_a_plate_with_a_name_in_a_fallback_font_changes_only_where_the_name_is():
    """The figure, the tag and the plate round the name are as for a Latin name."""
    game, deal = deal_at(3)
    scene = pictures.table_scene(deal.observation(None), ["Ann", "Ben", "Cat"],
                                 game.running_balances)
    seat = scene.seats[0]

    def indices(part: Image.Image) -> Image.Image:
        return Image.frombytes("L", part.size, part.tobytes())

    latin = indices(pictures._seat_part(0, seat, 100, 100, "en"))
    other = indices(pictures._seat_part(0, dataclasses.replace(seat, name="王小明🎲"), 100, 100, "en"))
    top = pictures._seat_box(seat, 100, 100)[1]
    diff = ImageChops.difference(latin, other).getbbox()
    assert diff is not None and diff[3] <= 100 + 36 - top  # above the figure's line (y + 47)


def test_the_docker_image_installs_the_package_with_its_fonts_and_fribidi():
    """The image installs the package (so its package data, the fonts) and FriBiDi,
    which Pillow's text layout loads to join Arabic letters and set Hebrew right to left."""
    dockerfile = (Path(fonts.__file__).parents[2] / "Dockerfile").read_text(encoding="utf-8")
    assert "COPY bot ./bot" in dockerfile
    assert "pip install --no-cache-dir --constraint constraints.txt ." in dockerfile
    assert "libfribidi0" in dockerfile

"""Card pictures drawn with Pillow: an observation in, PNG bytes out.

Like the embeds (``render``), every picture is built from an observation only
(in the OpenSpiel manner): ``hand_png`` from the seat's own observation,
``table_png`` and ``showdown_png`` from the public one (``deal.observation(None)``),
so a hidden card can never reach a public picture. Each public function first
turns what it may show into a small frozen *scene* (names, numbers, card ints),
then draws the scene alone; pictures are cached by scene, so equal content
gives the very same bytes without drawing twice.

Speed (issues 9 and 22): a move changes a few parts of the table picture only,
so the table is put together from parts cached by what they show — the bare
table once per size (kept one pixel wider: the PNG rows' filter bytes, so it is
encoded without a copy), the header's title and its status, each seat's plate
(its words on a cached bare plate), the centre's three bands (pool, cards,
labels), the cards traded face up — each already mapped to the palette; a move
redraws the parts it changed and encodes the PNG. A table's picture starts from
the canvas of its last one (``_LAST_FRAMES``) and pastes again only the parts
that changed (``_repaste``; ``_put``: straight through Pillow's core); a plate
goes through its mask only where it meets another part. The hand's cards, the
showdown rows' cards and the table's cards are pasted from tiles already on
their ground (``_layered_part``), and text is drawn from cached glyph masks
(``_text``). A text that lies on plain ground (the header, the centre's pool
and labels, a plate's words, a showdown row's words, its header and footer) is
not drawn at all: its mask is mapped to palette indices through a table per ink
and ground (``_text_tile``) and pasted on the ground already mapped; a plate's
hearts are tiles on its fill, its pill and the dealer's disc (drawn opaque or
not at all) are pasted through their own masks (``_seat_tiles``); the showdown's
rows, header and footer are pasted straight on its canvas. Where a piece does
not lie so, its part is drawn and mapped. Either way the pixels are those of
drawing everything on one canvas (tests, and ``scripts/picture_pairs.py``). The
card sprites can be drawn ahead, at start (``warm``).

Cards are drawn by this module: rank in two corners, suits as vector shapes
(no font glyph for the suit symbols), red hearts and diamonds, near-black
spades and clubs, a white face with a dark border (clear on Discord's dark and
light themes), and a patterned back for face-down cards. Text uses DejaVu Sans,
shipped in ``assets/`` with its licence (Pillow's built-in font has no accented
letters, which players' names need), and for the characters it lacks the Noto
fonts of ``fonts`` (Arabic, Hebrew, Devanagari, Thai, emoji, Chinese, Japanese,
Korean), so that a name in any common script is drawn as written: a text is
drawn in runs, each in its font, and measured and cut to fit with those fonts.
No Discord import: the cogs attach the bytes.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache, partial
from typing import NamedTuple, TypeAlias

from PIL import Image, ImageChops, ImageDraw, ImageFont, _imaging

from ..engine import Observation, Ranking, Showdown, describe
from ..engine.cards import DECK, RANK_LABELS, RANKS, Card, rank, suit
from ..i18n import N_, _, current, deck
from . import fonts
from . import png as png_file
from .cards import card_label, hand_label
from .names import skeleton
from .status import PICTURE, ending_line, middle_word, status_line
from .words import hand_words, plural

__all__ = ["clear_cache", "hand_alt", "hand_png", "showdown_alt", "showdown_png", "table_alt",
           "table_png", "warm"]

ASSETS = fonts.ASSETS

# --------------------------------------------------------------------- colours
FELT = (22, 78, 48)
FELT_LIGHT = (33, 104, 64)
RIM = (94, 60, 34)
PLATE = (14, 48, 30)
PLATE_EDGE = (74, 132, 98)
PLATE_ACTING = (30, 86, 55)
WHITE = (246, 246, 242)
SOFT = (196, 222, 204)
DIM = (128, 160, 140)
GOLD = (246, 190, 40)
PLUS = (128, 226, 148)
MINUS = (255, 150, 138)
FACE = (253, 253, 250)
EDGE = (30, 30, 34)
RED = (204, 20, 44)
BLACK = (22, 22, 28)
BACK = (40, 62, 140)
BACK_LINE = (92, 118, 198)
SHADOW_ALPHA = 90

#: the four-colour deck's diamonds and clubs (chosen in bot/i18n/deck.py)
BLUE = (16, 72, 172)
GREEN = (48, 130, 96)
Ink = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]
#: suit index (``cards.suit``: clubs, diamonds, hearts, spades) -> ink
SUIT_INK: Ink = (BLACK, RED, RED, BLACK)
#: the same for the four-colour deck a member may choose (``bot.i18n.deck``)
FOUR_COLOUR_INK: Ink = (GREEN, BLUE, RED, BLACK)
#: the three jaques pots, in order
POT_NAMES = ("tricon", "sequence/flush", "pair/high")
#: the tag of the seat to act, by the deal's phase (any other: ``turn``)
ACTING = {"choice": N_("chooses"), "horse": N_("horse?"), "turn": N_("to act")}

SCALE = 4  # card sprites are drawn this many times larger, then reduced (anti-aliasing)
#: entries of the palette every picture uses (``_palette``; ``png.encode``)
PALETTE_COLOURS = 256


# ----------------------------------------------------------------------- fonts
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (Bold) at ``size`` pixels: the font every text is drawn in,
    with the fallback fonts of ``fonts`` for the characters it lacks."""
    return fonts.face(size, bold)


@lru_cache(maxsize=4096)
def _drawable(ch: str) -> bool:
    """Some font of the pictures has ``ch`` (``fonts.drawable``); of the white
    space, only the plain space. Cached."""
    if ch.isspace():
        return ch == " "
    return unicodedata.category(ch) not in ("Cc", "Cs", "Co", "Cn") and fonts.drawable(ch)


def _invisible(ch: str) -> bool:
    """``ch`` is drawn as nothing (a format character such as a joiner or a
    direction mark, a variation selector): left out without a space."""
    code = ord(ch)
    return unicodedata.category(ch) == "Cf" or 0xFE00 <= code <= 0xFE0F \
        or 0xE0100 <= code <= 0xE01EF


@lru_cache(maxsize=1024)
def _clean(text: str) -> str:
    """``text`` without the characters no font of the pictures can draw (an
    unassigned or private code point, a control character, a script none of
    them covers): each becomes a space (nothing, if it is drawn as nothing), and
    the spaces are collapsed; nothing visible left gives ``"?"``. Every common
    script is kept (``fonts``): ``"🤖 Ada"``, ``"王小明"`` and ``"محمد"`` are unchanged."""
    kept = "".join(ch if _drawable(ch) else "" if _invisible(ch) else _folded(ch) for ch in text)
    kept = " ".join(kept.split())
    return kept if any(not _invisible(ch) for ch in kept) else "?"


@lru_cache(maxsize=1024)
def _folded(ch: str) -> str:
    """What ``_clean`` draws for ``ch``, which no font has: its compatibility
    form when some font has all of that (the styled letters of names such as
    ``"𝓐𝓷𝓷"`` as ``"A"``, ``"n"``...), else a space."""
    form = unicodedata.normalize("NFKC", ch)
    return form if form != ch and all(_drawable(c) for c in form) else " "


def _single(text: str, font: ImageFont.FreeTypeFont) -> bool:
    """``font`` (DejaVu) draws all of ``text``: the one run of ``fonts.runs``."""
    return len(parts := fonts.runs(text, font)) == 1 and parts[0][1] is font


@lru_cache(maxsize=8192)
def _advance(font: ImageFont.FreeTypeFont, ch: str) -> float:
    return font.getlength(ch)


@lru_cache(maxsize=4096)
def _run_length(font: ImageFont.FreeTypeFont, text: str) -> float:
    """``font.getlength(text)``, cached (figures and labels come back often)."""
    return font.getlength(text)


@lru_cache(maxsize=4096)
def _length(font: ImageFont.FreeTypeFont, text: str) -> float:
    """The advance of ``text`` in pixels as ``_text`` draws it with ``font``:
    ``font.getlength(text)`` when DejaVu has all of it, else the sum of its
    runs in their own fonts (``fonts.runs``). Cached."""
    return sum(_run_length(f, part) for part, f in fonts.runs(text, font))


@lru_cache(maxsize=4096)
def _fit(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``text``, cut with an ellipsis so that it is at most ``width`` pixels wide
    as drawn with ``font`` and its fallbacks (cached: the same names and labels
    come back at every move). A text in several fonts is cut between clusters
    (``fonts.clusters``), never inside an emoji sequence or a letter's marks."""
    if not _single(text, font):
        if _length(font, text) <= width:
            return text
        parts = list(fonts.clusters(text))
        while parts and _length(font, "".join(parts) + "…") > width:
            parts.pop()
        return "".join(parts).rstrip() + "…"
    if sum(_advance(font, ch) for ch in text) <= width - 4:  # kerning only narrows it
        return text
    if _length(font, text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


#: room left round a text's box in its cached mask (kerning and anti-aliasing)
TEXT_PAD = 3


@lru_cache(maxsize=4096)
def _text_mask(text: str, font: ImageFont.FreeTypeFont, anchor: str, fx: float,
               fy: float) -> tuple[Image.Image, int, int]:
    """The coverage mask of ``text`` (mode ``L``) as ``ImageDraw.text`` renders it
    at a point whose fractional part is ``(fx, fy)``, and where the point sits in
    the mask. Cached: Pillow's font rendering is the dearest part of a picture,
    and the same names, labels and figures come back at every move.

    The mask is Pillow's own (``getmask2`` with the point's fraction as its
    start, as ``ImageDraw.text`` renders), with no room round it: one layout
    and one rendering, where measuring the text first and drawing it on a
    blank mask took two. ``ImageDraw.text`` on a blank mask is used instead
    where that mask would put the point left of or above its edge (a glyph
    starting more than ``TEXT_PAD`` right of or below the point): drawn at a
    negative coordinate, Pillow rounds it towards zero, and the pixels are
    kept as they were drawn so."""
    core, (dx, dy) = font.getmask2(text, "L", None, None, None, 0, anchor, 255, (fx, fy),
                                   stroke_filled=True)
    if dx <= TEXT_PAD and dy <= TEXT_PAD and 0 not in core.size:
        return _picture(core), -dx, -dy
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    ox, oy = TEXT_PAD - math.floor(left), TEXT_PAD - math.floor(top)
    mask = Image.new("L", (math.ceil(right) + ox + TEXT_PAD, math.ceil(bottom) + oy + TEXT_PAD))
    ImageDraw.Draw(mask).text((ox + fx, oy + fy), text, font=font, fill=255, anchor=anchor)
    return mask, ox, oy


@lru_cache(maxsize=256)
def _baseline(font: ImageFont.FreeTypeFont, anchor: str) -> float:
    """How many pixels below the anchor point Pillow puts the baseline of a
    text in ``font`` for the vertical anchor ``anchor``: ``a`` (ascender), ``m``
    (middle), ``s`` (baseline) or ``d`` (descender); the same for every text."""
    return font.getbbox("x", anchor="l" + anchor)[1] - font.getbbox("x", anchor="ls")[1]


def _half_up(value: float) -> int:
    """``value`` rounded to the nearest pixel, halves up (as Pillow places anchors)."""
    return math.floor(value + 0.5)


@lru_cache(maxsize=1024)
def _runs_mask(text: str, font: ImageFont.FreeTypeFont, anchor: str, fx: float,
               fy: float) -> tuple[Image.Image, int, int]:
    """``_text_mask`` for a text in several fonts (``fonts.runs``): its runs
    drawn one after another on one baseline, placed by ``font`` (DejaVu) for
    the vertical anchor, as a text DejaVu draws alone would be, and by the
    runs' advances for the horizontal one (``l``, ``m``, ``r``): for a text of
    one run, the pixels of ``_text_mask`` (with the ascender anchor ``a`` at a
    fractional height, but for one row's anti-aliasing; our texts use ``m``).

    Raises:
        KeyError: ``anchor`` is not one of those (``t`` and ``b`` depend on the
            glyphs; no text in several fonts is drawn with them).
    """
    parts = fonts.runs(text, font)
    starts, x = [], 0.0
    for part, f in parts:
        starts.append(x)
        x += _run_length(f, part)
    shift = {"l": 0, "m": -_half_up(x / 2), "r": -_half_up(x)}[anchor[0]]
    down = _baseline(font, anchor[1])
    boxes = [f.getbbox(part, anchor="ls") for part, f in parts]
    left = shift + min(s + b[0] for s, b in zip(starts, boxes, strict=True))
    right = shift + max(s + b[2] for s, b in zip(starts, boxes, strict=True))
    top, bottom = down + min(b[1] for b in boxes), down + max(b[3] for b in boxes)
    ox, oy = TEXT_PAD - math.floor(left), TEXT_PAD - math.floor(top)
    mask = Image.new("L", (math.ceil(right) + ox + TEXT_PAD, math.ceil(bottom) + oy + TEXT_PAD))
    draw = ImageDraw.Draw(mask)
    for (part, f), start in zip(parts, starts, strict=True):
        draw.text((ox + fx + shift + start, oy + fy + down), part, font=f, fill=255, anchor="ls")
    return mask, ox, oy


#: a tile to paste (``_put``): a picture, or a picture's core as Pillow's
#: methods return it (a text's tile, ``_text_tile``: made by the dozen, a
#: picture round each would cost more than the tile)
Tile: TypeAlias = "Image.Image | _imaging.ImagingCore"


def _cut(img: Image.Image, box: tuple[int, int, int, int] | None = None) -> Image.Image:
    """``img.crop(box)`` (``None``: ``img.copy()``) of a picture this module
    made (in memory, loaded), straight through Pillow's core, as ``_put``."""
    return _picture(img.im.copy() if box is None else img.im.crop(box))


def _picture(core: _imaging.ImagingCore) -> Image.Image:
    """A picture round Pillow's ``core`` as ``Image._new`` makes it, less what
    our parts never use: a palette picture gets no palette object (the PNG's
    palette is written apart, ``_palette_bytes``), nor any ``info``."""
    img = Image.Image()
    img.im = core
    img._mode = core.mode
    img._size = core.size
    return img


def _put(canvas: Image.Image, source: Tile | tuple[int, ...], xy: tuple[int, int],
         mask: Image.Image | None = None) -> None:
    """``canvas.paste(source, xy, mask)``, straight to Pillow's core (``Image.im``):
    a picture pastes dozens of sprites, masks and parts, and ``Image.paste``'s
    checks cost more than most of those pastes. Only for what this module makes:
    pictures in memory, loaded, ``source`` of ``canvas``'s mode (or RGBA onto
    RGB with itself as ``mask``), a colour as a tuple of ``canvas``'s mode, or a
    picture's core (``Tile``)."""
    if isinstance(source, tuple):
        assert mask is not None, "a colour is pasted through a mask"
        core: Tile | tuple[int, ...] = source
        width, height = mask.size
    else:
        core = source.im if isinstance(source, Image.Image) else source
        width, height = source.size
    box = (xy[0], xy[1], xy[0] + width, xy[1] + height)
    if mask is None:
        canvas.im.paste(core, box)
    else:
        canvas.im.paste(core, box, mask.im)


def _put_tiles(canvas: Image.Image, tiles: Sequence[tuple[Tile, tuple[int, int]]],
               dx: int = 0, dy: int = 0) -> None:
    """Each tile pasted whole on ``canvas`` at its place moved by ``(dx, dy)``
    (``_put`` without a mask, with its checks and lookups done once)."""
    core, picture = canvas.im, Image.Image
    for tile, (x, y) in tiles:
        source = tile.im if isinstance(tile, picture) else tile
        width, height = source.size
        core.paste(source, (x + dx, y + dy, x + dx + width, y + dy + height))


def _text(img: Image.Image, xy: tuple[float, float], text: str,
          font: ImageFont.FreeTypeFont, fill: tuple[int, int, int], anchor: str = "la") -> None:
    """Draw ``text`` on ``img`` as ``ImageDraw.text(xy, text, fill, font, anchor)``
    does, pixel for pixel, from a cached mask (``_text_mask``); the characters
    DejaVu (``font``) lacks in their fallback fonts (``_runs_mask``)."""
    x, y = xy
    fx, fy = x - math.floor(x), y - math.floor(y)
    mask, ox, oy = _mask_of(text, font, anchor, fx, fy)
    _put(img, fill, (math.floor(x) - ox, math.floor(y) - oy), mask)


def _mask_of(text: str, font: ImageFont.FreeTypeFont, anchor: str, fx: float,
             fy: float) -> tuple[Image.Image, int, int]:
    """``_text_mask``, or ``_runs_mask`` for a text DejaVu does not draw alone."""
    return _text_mask(text, font, anchor, fx, fy) if _single(text, font) \
        else _runs_mask(text, font, anchor, fx, fy)


#: a text as ``_text`` draws it: (point, text, font, ink, anchor)
Words = tuple[tuple[float, float], str, ImageFont.FreeTypeFont, tuple[int, int, int], str]


@lru_cache(maxsize=16)
def _ink_lut(fill: tuple[int, int, int], ground: tuple[int, int, int]) -> list[int]:
    """``_ink_indices`` as the list ``ImagingCore.point`` takes."""
    return list(_ink_indices(fill, ground))


@lru_cache(maxsize=1024)
def _text_tile(text: str, font: ImageFont.FreeTypeFont, anchor: str, fx: float, fy: float,
               fill: tuple[int, int, int], ground: tuple[int, int, int],
               ) -> _imaging.ImagingCore:
    """``text`` drawn by ``_text`` on plain ``ground`` the size of its mask
    (``_mask_of``), mapped to the palette: each pixel's index is the one of
    ``fill`` over ``ground`` at that pixel's coverage (``_ink_indices``), as
    drawing the text there and mapping the whole gives; the picture's core
    (``Tile``). Cached."""
    mask = _mask_of(text, font, anchor, fx, fy)[0]
    tile: _imaging.ImagingCore = mask.im.point(_ink_lut(fill, ground), None)  # no rounding
    return tile


@lru_cache(maxsize=64)
def _ink_indices(fill: tuple[int, int, int], ground: tuple[int, int, int]) -> bytes:
    """For each coverage 0 to 255 of a text's mask, the palette index of the
    pixel ``_text`` gives there with ``fill`` on ``ground``: 256 pixels of ground,
    the ink pasted through a mask of every coverage, mapped."""
    strip = Image.new("RGB", (256, 1), ground)
    _put(strip, fill, (0, 0), Image.frombytes("L", (256, 1), bytes(range(256))))
    return _quantize(strip).tobytes()


def _words_part(sides: int, box: tuple[int, int, int, int], texts: Sequence[Words],
                ) -> Image.Image:
    """A part of a table picture that holds ``texts`` only (in the part's
    coordinates), mapped to the palette: ``_part`` drawing them with ``_text``,
    pixel for pixel. Where each text lies wholly in the part on plain bare table
    and no two meet, the texts are pasted as tiles already mapped
    (``_word_tiles``) on the bare table already mapped: no drawing, no mapping."""
    table = _table_ground(sides, _frame(sides).height)
    tiles = _word_tiles(("table", sides, box), lambda: table[0].crop(box), texts,
                        [(0, 0, box[2] - box[0], box[3] - box[1])], clip=True)
    if tiles is None:
        def paint(img: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            for point, words, face, ink, where in texts:
                _text(img, point, words, face, ink, where)
        return _part(sides, box, paint)
    part = _cut(table[1], (box[0] + 1, box[1], box[2] + 1, box[3]))  # framed: one to the right
    _put_tiles(part, tiles)
    return part


#: (ground's key, box) -> the one colour of that ground there (``None``: more
#: than one): ``_word_tiles``
_PLAIN_UNDER: dict[tuple[object, ...], tuple[int, int, int] | None] = {}


def _word_tiles(ground_key: tuple[object, ...], ground: Callable[[], Image.Image],
                texts: Sequence[Words], boxes: Sequence[tuple[int, int, int, int]], *,
                clip: bool = False) -> list[tuple[Tile, tuple[int, int]]] | None:
    """``texts`` as tiles already mapped (``_text_tile``) and where to paste
    them, when each text's mask lies in one of ``boxes`` on plain ``ground()``
    (RGB; ``ground_key`` says what it shows) and no two masks meet: pasted on
    the ground mapped, the pixels of drawing them there with ``_text`` and
    mapping. ``None`` otherwise. ``clip``: ``boxes`` is one box, the whole
    ground, and a mask reaching past it counts for its pixels inside (its tile,
    pasted there, is cut at the edge as the text drawn there would be)."""
    tiles: list[tuple[Tile, tuple[int, int]]] = []
    seen: list[tuple[int, int, int, int]] = []
    for (x, y), text, font, fill, anchor in texts:
        box, fx, fy = _mask_box(text, font, anchor, x, y)
        left, top = box[0], box[1]
        if clip:
            whole = boxes[0]
            box = (max(box[0], whole[0]), max(box[1], whole[1]), min(box[2], whole[2]),
                   min(box[3], whole[3]))
            if box[0] >= box[2] or box[1] >= box[3]:
                continue  # wholly outside: nothing of it is drawn
        for b in boxes:
            if b[0] <= box[0] and b[1] <= box[1] and box[2] <= b[2] and box[3] <= b[3]:
                break
        else:
            return None  # in none of the boxes
        for o in seen:
            if box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]:
                return None  # meets another
        colour = _PLAIN_UNDER.get((ground_key, box), _UNKNOWN)
        if colour is _UNKNOWN:
            colour = _plain(ground_key, ground, box)
        if colour is None:
            return None
        assert isinstance(colour, tuple)
        seen.append(box)
        tiles.append((_text_tile(text, font, anchor, fx, fy, fill, colour), (left, top)))
    return tiles


#: not in ``_PLAIN_UNDER`` yet
_UNKNOWN = object()


@lru_cache(maxsize=8192)
def _mask_box(text: str, font: ImageFont.FreeTypeFont, anchor: str, x: float, y: float,
              ) -> tuple[tuple[int, int, int, int], float, float]:
    """Where ``_text`` at ``(x, y)`` puts the mask of ``text`` (``_mask_of``):
    its box (right and bottom excluded), and the point's fractional part."""
    fx, fy = x - math.floor(x), y - math.floor(y)
    mask, ox, oy = _mask_of(text, font, anchor, fx, fy)
    left, top = math.floor(x) - ox, math.floor(y) - oy
    return (left, top, left + mask.width, top + mask.height), fx, fy


def _plain(ground_key: tuple[object, ...], ground: Callable[[], Image.Image],
           box: tuple[int, int, int, int]) -> tuple[int, int, int] | None:
    """The one colour of ``ground()`` (RGB; ``ground_key`` says what it shows)
    under ``box``, or ``None`` when it has more than one there. Cached."""
    where = (ground_key, box)
    if where not in _PLAIN_UNDER:
        _PLAIN_UNDER[where] = _colour_of(ground().crop(box))
        if len(_PLAIN_UNDER) > 4096:
            del _PLAIN_UNDER[next(iter(_PLAIN_UNDER))]
    return _PLAIN_UNDER[where]


def _colour_of(img: Image.Image) -> tuple[int, int, int] | None:
    """The one colour of ``img`` (RGB), or ``None`` when it has more than one."""
    colours = img.getcolors(1)
    if not colours:
        return None
    colour = colours[0][1]
    assert isinstance(colour, tuple)
    return (colour[0], colour[1], colour[2])


class CardLayer(NamedTuple):
    """A card (``None``: its back) ``width`` pixels wide pasted with its shadow
    at ``(x, y)`` of a part (``_paste_card``)."""

    card: Card | None
    width: int
    x: int
    y: int


class OutlineLayer(NamedTuple):
    """``ImageDraw.rounded_rectangle(box, radius, outline=colour, width=line)``
    on a part (an empty pile's place)."""

    box: tuple[int, int, int, int]
    radius: int
    colour: tuple[int, int, int]
    line: int


#: a card or a shape drawn on a part (``_paint_layer``)
Layer = CardLayer | OutlineLayer


def _paint_layer(img: Image.Image, draw: ImageDraw.ImageDraw, layer: Layer) -> None:
    """Draw ``layer`` on ``img``."""
    if isinstance(layer, CardLayer):
        _paste_card(img, layer.card, layer.x, layer.y, layer.width)
    else:
        draw.rounded_rectangle(layer.box, radius=layer.radius, outline=layer.colour,
                               width=layer.line)


def _layer_box(layer: Layer) -> tuple[int, int, int, int]:
    """The pixels ``layer`` may touch (right and bottom excluded)."""
    if isinstance(layer, CardLayer):
        sprite = _card_sprite(layer.card, layer.width)
        return layer.x, layer.y, layer.x + sprite.width, layer.y + sprite.height
    x0, y0, x1, y1 = layer.box
    return x0, y0, x1 + 1, y1 + 1


def _moved(layer: Layer, dx: int, dy: int) -> Layer:
    """``layer`` moved by ``(dx, dy)`` pixels."""
    if isinstance(layer, CardLayer):
        return CardLayer(layer.card, layer.width, layer.x + dx, layer.y + dy)
    x0, y0, x1, y1 = layer.box
    return OutlineLayer((x0 + dx, y0 + dy, x1 + dx, y1 + dy), layer.radius, layer.colour,
                        layer.line)


@lru_cache(maxsize=256)
def _layers_tile(layers: tuple[Layer, ...], size: tuple[int, int],
                 ground: tuple[int, int, int]) -> Image.Image:
    """``layers`` (in the tile's coordinates) drawn in order on plain ``ground``
    of ``size``, mapped to the palette. Cached: the same cards come back."""
    img = Image.new("RGB", size, ground)
    draw = ImageDraw.Draw(img)
    for layer in layers:
        _paint_layer(img, draw, layer)
    return _part_of(img)


Box = tuple[int, int, int, int]
#: (ground's key, size, layers' boxes, words' boxes) -> ``_layer_plan``
_PLANS: dict[tuple[object, ...], list[tuple[Box, tuple[int, ...], tuple[int, int, int]]] | None] = {}


def _layer_plan(ground_key: tuple[object, ...], ground: Callable[[], Image.Image],
                size: tuple[int, int], boxes: tuple[Box, ...], words: tuple[Box, ...],
                ) -> list[tuple[Box, tuple[int, ...], tuple[int, int, int]]] | None:
    """How layers of ``boxes`` (in order) are pasted as tiles on ``ground()``
    (RGB of ``size``; ``ground_key`` says what it shows) beside tiles of words
    in ``words``: the layers that meet in groups, each its box (the union of its
    layers'), its layers' indices in order and the one colour of the ground
    under it; ``None`` when a group does not lie wholly in the ground on one
    colour or meets another group or a word. Cached (by geometry alone)."""
    key = (ground_key, size, boxes, words)
    if key in _PLANS:
        return _PLANS[key]
    groups: list[tuple[Box, tuple[int, ...]]] = []
    for i, gbox in enumerate(boxes):
        members: tuple[int, ...] = (i,)
        for other_box, other in list(groups):
            if _meets(gbox, other_box):
                groups.remove((other_box, other))
                gbox = (min(gbox[0], other_box[0]), min(gbox[1], other_box[1]),
                        max(gbox[2], other_box[2]), max(gbox[3], other_box[3]))
                members = other + members
        groups.append((gbox, members))
    plan: list[tuple[Box, tuple[int, ...], tuple[int, int, int]]] | None = []
    taken = list(words)
    for piece, members in groups:
        colour = None if not (0 <= piece[0] and 0 <= piece[1] and piece[2] <= size[0]
                              and piece[3] <= size[1]) \
            or any(_meets(piece, other) for other in taken) \
            else _plain(ground_key, ground, piece)
        if colour is None:
            plan = None
            break
        assert plan is not None
        plan.append((piece, tuple(sorted(members)), colour))
        taken.append(piece)
    _PLANS[key] = plan
    if len(_PLANS) > 1024:
        del _PLANS[next(iter(_PLANS))]
    return plan


def _layered_part(sides: int | None, box: tuple[int, int, int, int], layers: Sequence[Layer],
                  texts: Sequence[Words] = ()) -> Image.Image:
    """A part of a table picture that holds ``layers`` (cards and shapes, drawn
    in order) and ``texts`` (in the part's coordinates), mapped to the palette:
    the pixels of ``_part`` drawing them, layers first (``sides`` ``None``: a
    part of plain felt of ``box``'s size, below the table). Where the layers
    that meet, taken together, and each text lie wholly in the part on plain
    ground and meet nothing else, each is pasted as a tile already mapped on
    the ground already mapped: nothing drawn or mapped but a tile not cached."""
    size = (box[2] - box[0], box[3] - box[1])
    if sides is None:
        ground_key: tuple[object, ...] = ("felt", size)
        rgb: Callable[[], Image.Image] = partial(Image.new, "RGB", size, FELT)
    else:
        ground_key, rgb = ("table", sides, box), \
            partial(_table_ground(sides, _frame(sides).height)[0].crop, box)
    tiles = _word_tiles(ground_key, rgb, texts, [(0, 0, *size)], clip=True)
    if tiles is not None:
        taken = tuple((max(0, x), max(0, y), x + t.size[0], y + t.size[1]) for t, (x, y) in tiles)
        plan = _layer_plan(ground_key, rgb, size, tuple(_layer_box(layer) for layer in layers),
                           taken)
        if plan is None:
            tiles = None
        else:
            for piece, members, colour in plan:
                moved = tuple(_moved(layers[i], -piece[0], -piece[1]) for i in members)
                tiles.append((_layers_tile(moved, (piece[2] - piece[0], piece[3] - piece[1]),
                                           colour), piece[:2]))
    if tiles is None:  # drawn and mapped
        canvas = rgb()
        draw = ImageDraw.Draw(canvas)
        for layer in layers:
            _paint_layer(canvas, draw, layer)
        for point, words, face, ink, where in texts:
            _text(canvas, point, words, face, ink, where)
        return _part_of(canvas)
    part = _cut(_felt(size)) if sides is None else \
        _cut(_table_ground(sides, _frame(sides).height)[1],
            (box[0] + 1, box[1], box[2] + 1, box[3]))  # framed: one to the right
    _put_tiles(part, tiles)
    return part


# ----------------------------------------------------------------------- suits
def _heart_outline(steps: int = 72) -> tuple[tuple[float, float], ...]:
    """The heart curve in a unit box (x, y in 0..1, y down), point at the bottom."""
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        pts.append((x, y))
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    return tuple(((x - x0) / (x1 - x0), (y - y0) / (y1 - y0)) for x, y in pts)


HEART = _heart_outline()


def _draw_suit(draw: ImageDraw.ImageDraw, which: int, cx: float, cy: float, size: float,
               fill: tuple[int, ...]) -> None:
    """Draw suit ``which`` (0 clubs, 1 diamonds, 2 hearts, 3 spades) as vector
    shapes, centred on ``(cx, cy)``, ``size`` pixels tall."""
    top = cy - size / 2

    def at(u: float, v: float, width: float = 1.0) -> tuple[float, float]:
        return cx + (u - 0.5) * size * width, top + v * size

    if which == 1:  # diamond
        w = 0.78
        draw.polygon([at(0.5, 0), at(1, 0.5, w), at(0.5, 1), at(0, 0.5, w)], fill=fill)
    elif which == 2:  # heart: the curve, a little wider than tall
        h = 0.88
        draw.polygon([at(u, 0.06 + v * h, 1.04) for u, v in HEART], fill=fill)
    elif which == 3:  # spade: a heart upside down, on a flared stem
        draw.polygon([at(u, (1 - v) * 0.8, 0.96) for u, v in HEART], fill=fill)
        draw.polygon([at(0.5, 0.5), at(0.68, 1.0), at(0.32, 1.0)], fill=fill)
    else:  # club: three leaves and a stem
        r = 0.235 * size
        for u, v in ((0.5, 0.255), (0.255, 0.575), (0.745, 0.575)):
            x, y = at(u, v)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
        draw.polygon([at(0.5, 0.26), at(0.26, 0.58), at(0.74, 0.58)], fill=fill)
        draw.polygon([at(0.5, 0.45), at(0.67, 1.0), at(0.33, 1.0)], fill=fill)


@lru_cache(maxsize=64)
def _pip(which: int, size: int, fill: tuple[int, int, int]) -> Image.Image:
    """A smooth RGBA suit sign ``size`` pixels square (drawn ``SCALE`` times larger)."""
    big = size * SCALE
    img = Image.new("RGBA", (big, big), fill + (0,))
    _draw_suit(ImageDraw.Draw(img), which, big / 2, big / 2, big, fill + (255,))
    return img.reduce(SCALE)


# ----------------------------------------------------------------------- cards
def card_height(width: int) -> int:
    """Height in pixels of a card ``width`` pixels wide (the 5:7 card shape)."""
    return round(width * 1.4)


def _card_face(card: Card | None, width: int, inks: Ink = SUIT_INK) -> Image.Image:
    """An RGBA card ``width`` pixels wide: face of ``card``, or the back for ``None``,
    its suit in ``inks[suit]``. Drawn ``SCALE`` times larger and reduced, so edges
    and pips are smooth."""
    w, h = width * SCALE, card_height(width) * SCALE
    img = Image.new("RGBA", (w, h), EDGE + (0,))
    draw = ImageDraw.Draw(img)
    radius = max(3, round(width * 0.08)) * SCALE
    border = max(1.5, width * 0.022) * SCALE
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=EDGE + (255,))
    inner = (border, border, w - 1 - border, h - 1 - border)
    draw.rounded_rectangle(inner, radius=max(1, radius - border), fill=FACE + (255,))
    if card is None:
        pad = border + w * 0.07
        panel = (pad, pad, w - 1 - pad, h - 1 - pad)
        lattice = Image.new("RGB", (w, h), BACK)
        lines = ImageDraw.Draw(lattice)
        step, line = w / 7, max(SCALE, round(width * 0.02 * SCALE))
        for i in range(-10, 11):
            x = i * step
            lines.line((x, 0, x + h, h), fill=BACK_LINE, width=line)
            lines.line((x + h, 0, x, h), fill=BACK_LINE, width=line)
        mask = Image.new("L", (w, h))
        ImageDraw.Draw(mask).rounded_rectangle(panel, radius=radius * 0.6, fill=255)
        img.paste(lattice, (0, 0), mask)
        draw.rounded_rectangle(panel, radius=radius * 0.6, outline=FACE + (255,),
                               width=max(SCALE, round(width * 0.012 * SCALE)))
        return img.reduce(SCALE)
    r, s = rank(card), suit(card)
    ink = inks[s]
    label = RANK_LABELS.get(RANKS[r], RANKS[r])
    size = (0.23 if len(label) > 1 else 0.28) * width * SCALE
    cx = 0.19 * w
    font = _font(round(size), True)
    draw.text((cx, 0.055 * w + border), label, font=font, fill=ink, anchor="mt")
    pip = 0.19 * w
    index_bottom = 0.055 * w + border + 0.28 * w * 1.02
    _draw_suit(draw, s, cx, index_bottom + pip / 2, pip, ink)
    corner = (0, 0, math.ceil(0.36 * w), math.ceil(index_bottom + pip + 0.03 * w))
    piece = img.crop(corner).rotate(180)
    img.paste(piece, (w - corner[2], h - corner[3]))
    if 9 <= r <= 11:  # court cards (J, Q, K): their letter and pip in a frame
        frame = (0.3 * w, 0.24 * h, 0.7 * w, 0.76 * h)
        draw.rounded_rectangle(frame, radius=0.05 * w, outline=ink,
                               width=max(SCALE, round(width * 0.018 * SCALE)))
        label_size = round(0.2 * w)
        centre = _font(label_size, True)
        draw.text((w / 2, 0.24 * h + 0.05 * w), label, font=centre, fill=ink, anchor="mt")
        _draw_suit(draw, s, w / 2, 0.57 * h, 0.3 * w, ink)
    else:
        _draw_suit(draw, s, w / 2, h / 2, 0.5 * w, ink)
    return img.reduce(SCALE)


def _shadow_offset(width: int) -> int:
    return max(2, width // 30)


@lru_cache(maxsize=512)
def _card_sprite(card: Card | None, width: int, inks: Ink = SUIT_INK) -> Image.Image:
    """``_card_face`` with its soft shadow below and to the right, ready to paste.
    Cached: callers only paste it, never draw on it."""
    face = _card_face(card, width, inks)
    off = _shadow_offset(width)
    sprite = Image.new("RGBA", (face.width + off, face.height + off), (0, 0, 0, 0))
    shadow = face.getchannel("A").point(lambda v: v * SHADOW_ALPHA // 255)
    sprite.paste((0, 0, 0, 255), (off, off), shadow)
    layer = Image.new("RGBA", sprite.size, (0, 0, 0, 0))
    layer.paste(face, (0, 0))
    return Image.alpha_composite(sprite, layer)


def _paste_card(canvas: Image.Image, card: Card | None, x: int, y: int, width: int) -> None:
    """Paste the face of ``card`` (the back for ``None``) with its shadow at ``(x, y)``."""
    sprite = _card_sprite(card, width)
    _put(canvas, sprite, (x, y), sprite)


def _shade(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """``colour`` under a card's shadow."""
    keep = 1 - SHADOW_ALPHA / 255
    return (round(colour[0] * keep), round(colour[1] * keep), round(colour[2] * keep))


#: the inks each ground meets in our pictures, for the palette's blends
_INKS_ON = {
    FELT: (WHITE, SOFT, GOLD, EDGE, DIM, _shade(FELT)),
    FELT_LIGHT: (WHITE, SOFT, EDGE, _shade(FELT_LIGHT)),
    RIM: (GOLD, PLATE_EDGE, EDGE),
    PLATE: (WHITE, SOFT, DIM, PLUS, MINUS, RED, EDGE, _shade(PLATE)),
    PLATE_ACTING: (WHITE, SOFT, GOLD, PLUS, MINUS, RED, EDGE, _shade(PLATE_ACTING)),
    FACE: (EDGE, RED, BLACK),
    GOLD: (EDGE,),
    BACK: (BACK_LINE, FACE),
    WHITE: (EDGE,),
    PLATE_EDGE: (WHITE,),
}
BLEND_STEPS = 6  # shades between an ink and its ground
FOUR_COLOUR_STEPS = 4  # the same for the four-colour deck's two inks on a card's face


@lru_cache(maxsize=2)
def _palette(inks: Ink = SUIT_INK) -> Image.Image:
    """The one 256-colour palette of every picture: our colours, and for each
    ink on each ground it meets, ``BLEND_STEPS`` shades between them (the
    anti-aliased edges). A palette PNG is a third the size of an RGB one, and
    mapping to a fixed palette is much faster than Pillow's RGB row filters.
    ``inks`` other than ``SUIT_INK`` (a four-colour hand picture) add theirs on
    a card's face after the rest, every other colour keeping its index."""
    colours: list[tuple[int, int, int]] = []
    for ground, on in _INKS_ON.items():
        for ink in (ground, *on):
            if ink not in colours:
                colours.append(ink)
    for ground, on in _INKS_ON.items():
        for ink in on:
            for k in range(1, BLEND_STEPS + 1):
                t = k / (BLEND_STEPS + 1)
                red, green, blue = (round(g + (i - g) * t) for g, i in zip(ground, ink, strict=True))
                shade = (red, green, blue)
                if shade not in colours:
                    colours.append(shade)
    for ink in dict.fromkeys(i for i in inks if i not in SUIT_INK):
        for k in range(FOUR_COLOUR_STEPS + 1):
            t = k / (FOUR_COLOUR_STEPS + 1)
            tint = tuple(round(i + (f - i) * t) for f, i in zip(FACE, ink, strict=True))
            if tint not in colours:
                colours.append((tint[0], tint[1], tint[2]))
    assert len(colours) <= PALETTE_COLOURS, len(colours)
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in colours for v in c] + [0] * (768 - 3 * len(colours)))
    return pal


def _quantize(img: Image.Image, inks: Ink = SUIT_INK) -> Image.Image:
    """``img`` (RGB) mapped to the palette (``_palette``), pixel by pixel: a part
    of a picture maps to the same indices as the whole picture would there."""
    return img.quantize(palette=_palette(inks), dither=Image.Dither.NONE)


def _part_of(img: Image.Image, inks: Ink = SUIT_INK) -> Image.Image:
    """``img`` (RGB) mapped to the palette, as a cached part to paste into a
    picture that has the palette: without a palette of its own (hundreds of
    parts are cached, each copy of the palette would be kept too)."""
    part = _quantize(img, inks)
    part.palette = None
    return part


def _encode(img: Image.Image, *, framed: bool = False, smaller_over: int | None = None,
            inks: Ink = SUIT_INK) -> bytes:
    """``img`` (palette mode) as PNG bytes with the palette (``png.encode``;
    ``framed``: its first column is the rows' filter bytes, ``_framed``;
    ``smaller_over``: compressed again, harder, above so many bytes)."""
    return png_file.encode(img, PALETTE_COLOURS, framed=framed, palette=_palette_bytes(inks),
                           smaller_over=smaller_over)


@lru_cache(maxsize=2)
def _palette_bytes(inks: Ink = SUIT_INK) -> bytes:
    """The palette (``_palette``) as the PNG's ``PLTE`` entries: every picture's."""
    return bytes((_palette(inks).getpalette("RGB") or [])[:3 * PALETTE_COLOURS])


def _canvas(ground: Image.Image) -> tuple[Image.Image, bytearray]:
    """A copy of ``ground`` (a cached picture in palette mode, framed:
    ``_framed``) to paste a picture's parts on, and its pixels: the picture's
    memory is the bytearray (``Image.frombuffer``), so that the PNG's rows are
    read from it with no copy (``_encode_rows``). Only ``_put`` may draw on it:
    it writes through Pillow's core, where the picture's own methods would copy
    the pixels first (Pillow marks a picture made so read-only)."""
    rows = _ROWS.get(id(ground))
    if rows is None or rows[0] is not ground:
        rows = _ROWS[id(ground)] = (ground, ground.tobytes())
        if len(_ROWS) > 16:
            del _ROWS[next(iter(_ROWS))]
    pixels = bytearray(rows[1])
    # Image.frombuffer("P", ground.size, pixels, "raw", "P", 0, 1), less its checks
    return _picture(_imaging.map_buffer(pixels, ground.size, "raw", 0, ("P", 0, 1))), pixels


#: the pixels of the grounds ``_canvas`` copied, by the ground's identity (kept
#: with the ground itself, so that the identity is not another's)
_ROWS: dict[int, tuple[Image.Image, bytes]] = {}


def _encode_rows(rows: bytearray, size: tuple[int, int], *,
                 smaller_over: int | None = None) -> bytes:
    """A framed picture's pixels (``_canvas``) of ``size`` as PNG bytes with the
    palette (``png.encode_rows``)."""
    return png_file.encode_rows(rows, size[0] - 1, size[1], _palette_bytes(),
                                smaller_over=smaller_over)


def _framed(img: Image.Image) -> Image.Image:
    """``img`` (palette mode) one pixel wider, its first column 0: the PNG rows'
    filter bytes (``png.encode`` with ``framed``). A cached ground is kept so,
    and the parts pasted on a copy of it go one pixel to the right."""
    out = Image.new("P", (img.width + 1, img.height), 0)
    out.paste(img, (1, 0))
    out.palette = None
    return out


def _png(img: Image.Image) -> bytes:
    """``img`` (RGB) as palette PNG bytes (see ``_palette``)."""
    return _encode(_quantize(img))


def _draw_plate(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], *,
                fill: tuple[int, int, int], outline: tuple[int, int, int],
                width: int = 2, radius: int = 12) -> None:
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def _count(count: int, noun: str) -> str:
    """``count`` ``noun``, in the plural unless it is exactly one ("1 chip", "3 chips")."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _signed(value: int) -> str:
    """``+3``, ``−2`` (a true minus sign), ``±0``."""
    if value > 0:
        return f"+{value}"
    return f"\u2212{-value}" if value < 0 else "\u00b10"


def _tone(value: int) -> tuple[int, int, int]:
    return PLUS if value > 0 else MINUS if value < 0 else WHITE


# ======================================================================== hand
@dataclass(frozen=True)
class HandScene:
    """What a hand picture shows: ``cards`` face up (highest first), ``backs``
    face-down cards (an oldway dealer choosing blind), ``extra`` ``(label, card)``
    pairs (a drawn or offered card), ``caption`` (the category) and ``note``."""

    cards: tuple[Card, ...]
    backs: int
    extra: tuple[tuple[str, Card], ...]
    caption: str
    note: str
    inks: Ink = SUIT_INK


class HandParts(NamedTuple):
    """All a hand picture and its description are drawn from (``hand_parts``):
    the seat's own cards (``None`` or empty: none to show), whether it has not
    looked at them yet (``blind``), a drawn or offered card, and the rules'
    hand ranking (the category's name). Equal parts make equal pictures, whoever
    holds the hand: the key the hand pictures are kept by (``hand_png``)."""

    hand: tuple[Card, ...] | None
    blind: bool
    drawn: Card | None
    offered: Card | None
    ranking: Ranking


def hand_parts(obs: Observation) -> HandParts:
    """What ``obs``'s hand picture shows (``HandParts``), from ``obs`` alone.

    Raises:
        ValueError: ``obs`` is the public observation (it holds no hand).
    """
    if obs.seat is None:
        raise ValueError("the public observation has no hand to draw")
    return HandParts(obs.hand, obs.blind, obs.drawn, obs.offered_card, obs.rules.ranking)


def hand_scene(obs: Observation) -> HandScene:
    """The scene of ``obs``'s private hand, from ``obs`` alone.

    Raises:
        ValueError: ``obs`` is the public observation (it holds no hand).
    """
    return _scene(hand_parts(obs))


def _scene(parts: HandParts) -> HandScene:
    """``hand_scene`` of the hand ``parts``, in the current language."""
    extra: list[tuple[str, Card]] = []
    if parts.drawn is not None:
        extra.append(("drawn", parts.drawn))
    if parts.offered is not None:
        extra.append(("offered", parts.offered))
    if parts.hand:
        cards = tuple(sorted(parts.hand, reverse=True))
        return HandScene(cards, 0, tuple(extra), hand_words(describe(cards, parts.ranking)), "")
    if parts.blind:
        return HandScene((), 3, tuple(extra), _("not looked at yet"),
                         _("decide about the widow first"))
    return HandScene((), 0, tuple(extra), _("you sit out this deal"), "")


def hand_alt(obs: Observation) -> str:
    """The picture's description (and text fallback) for ``obs``'s hand, e.g.
    ``"Your hand: 8♠ 7♠ 6♠ — sequence to 8."``; a drawn or offered card follows.
    In the current language and deck (the cards' suits); the same hand's is
    made once (``_hand_alt``, kept by ``HandParts``, deck and language).

    Raises:
        ValueError: ``obs`` is the public observation.
    """
    return _hand_alt(hand_parts(obs), deck.current(), current())


#: hand pictures and descriptions kept (``_hand_png``, ``_hand_alt``), each by its
#: ``HandParts``, deck and language: a picture is about 6–9 KB of PNG, so some
#: 2.3 MB per process at most (not per table; measured: 256 three-card hands),
#: its description a line of text (the pictures were kept by scene before, as many)
HANDS_KEPT = 256


@lru_cache(maxsize=HANDS_KEPT)
def _hand_alt(parts: HandParts, deck_name: str, language: str) -> str:
    """``hand_alt`` of the hand ``parts`` in ``deck_name`` and ``language``, the
    current deck and language (which the words are read from)."""
    scene = _scene(parts)
    if scene.cards:
        text = _("Your hand: {cards} — {caption}").format(cards=hand_label(scene.cards),
                                                         caption=scene.caption)
    elif scene.backs:
        text = _("Your hand: {caption}: {note}").format(caption=scene.caption, note=scene.note)
    else:
        text = _("Your hand: {caption}").format(caption=scene.caption)
    names = {"drawn": _("You drew {card}"), "offered": _("You are offered {card}")}
    for label, card in scene.extra:
        text += ". " + names[label].format(card=hand_label([card]))
    return text + "."


def hand_png(obs: Observation, inks: Ink = SUIT_INK) -> bytes:
    """PNG of the private hand of ``obs.seat``: its 3 (or 4) cards highest first,
    its category beneath, and a drawn or offered card set apart. About 530 × 300
    pixels for three cards; ``inks``: the suits' colours (``FOUR_COLOUR_INK``:
    the four-colour deck a member may choose, ``bot.i18n.deck``). The same hand
    shown again (My hand, a panel refreshed, another seat holding the same
    cards) is drawn once: kept by ``HandParts``, inks, deck and language
    (``_hand_png``), all the picture is drawn from.

    Raises:
        ValueError: ``obs`` is the public observation.
    """
    return _hand_png(hand_parts(obs), inks, deck.current(), current())


@lru_cache(maxsize=HANDS_KEPT)
def _hand_png(parts: HandParts, inks: Ink, deck_name: str, language: str) -> bytes:
    """``hand_png`` of the hand ``parts`` in ``inks``, ``deck_name`` and ``language``
    (the current deck and language, which the caption is read from)."""
    return draw_hand(replace(_scene(parts), inks=inks))


HAND_CARD = 150
HAND_GAP = 16
HAND_PAD = 24


@lru_cache(maxsize=16)
def _felt(size: tuple[int, int]) -> Image.Image:
    """Plain felt of ``size``, mapped to the palette."""
    return _quantize(Image.new("RGB", size, FELT))


@lru_cache(maxsize=2 * 53)  # every card and the back, in the two decks' inks
def _card_on_felt(card: Card | None, width: int, inks: Ink = SUIT_INK) -> Image.Image:
    """``card`` with its shadow on plain felt, mapped to the palette: pasted on
    felt, the pixels of ``_paste_card`` there."""
    sprite = _card_sprite(card, width, inks)
    tile = Image.new("RGB", sprite.size, FELT)
    tile.paste(sprite, (0, 0), sprite)
    return _part_of(tile, inks)


@lru_cache(maxsize=16)
def _index(colour: tuple[int, int, int]) -> int:
    """``colour``'s index in the palette."""
    index = _quantize(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
    assert isinstance(index, int)
    return index


def draw_hand(scene: HandScene) -> bytes:
    """PNG of a hand scene (``hand_png`` keeps them). The cards lie on plain felt, so
    they are pasted already mapped to the palette, shadow included; the words
    below them are drawn on a strip of felt, mapped to the palette alone. All
    of it is pasted on plain felt already mapped and framed (``_framed``: one
    pixel to the right), whose pixels are the PNG's rows (``_canvas``): the
    picture is never copied before encoding."""
    main = len(scene.cards) or scene.backs
    ch = card_height(HAND_CARD)
    row = main * HAND_CARD + max(0, main - 1) * HAND_GAP
    side = len(scene.extra) * (HAND_CARD + HAND_GAP) + (24 if scene.extra and main else 0)
    width = max(row + side, 3 * HAND_CARD + 2 * HAND_GAP) + 2 * HAND_PAD
    cards_h = ch + 16 if main or scene.extra else 0
    height = HAND_PAD + cards_h + 44 + (32 if scene.note else 0) + HAND_PAD - 8
    img, rows = _canvas(_hand_felt((width, height)))
    # the words' strip: under every card (the whole picture when there is none)
    below = HAND_PAD + ch + _shadow_offset(HAND_CARD) if cards_h else 0
    x = HAND_PAD + (width - 2 * HAND_PAD - row - side) // 2
    faces: list[Card | None] = list(scene.cards) or [None] * scene.backs
    for card in faces:
        _put(img, _card_on_felt(card, HAND_CARD, scene.inks), (x + 1, HAND_PAD))
        x += HAND_CARD + HAND_GAP
    centre = HAND_PAD + (width - 2 * HAND_PAD - side) // 2 if main else width // 2
    labels: list[tuple[str, int]] = []
    if scene.extra:
        x += 24 - HAND_GAP if main else 0
        if main:  # a rule 2 pixels wide, as ``ImageDraw.line`` draws it from top to bottom
            top, bottom = HAND_PAD + 10, HAND_PAD + ch - 10
            img.im.paste(_index(SOFT), (x - 12 + 1, top, x - 10 + 1, bottom + 1))
        for label, card in scene.extra:
            _put(img, _card_on_felt(card, HAND_CARD, scene.inks), (x + 1, HAND_PAD))
            labels.append((label, x + HAND_CARD // 2))
            x += HAND_CARD + HAND_GAP
    _put(img, _hand_strip((width, height - below), HAND_PAD + ch + 22 - below, tuple(labels),
                          HAND_PAD + cards_h + 22 - below, centre if main else width // 2,
                          scene.caption, scene.note), (1, below))
    return png_file.encode_rows(rows, width, height, _palette_bytes(scene.inks))


@lru_cache(maxsize=8)
def _hand_felt(size: tuple[int, int]) -> Image.Image:
    """Plain felt of ``size`` (a hand picture's), mapped to the palette and framed
    (``_framed``): a few sizes (three or four cards, a drawn or offered card
    beside them, a note below)."""
    return _framed(_felt(size))


@lru_cache(maxsize=64)
def _hand_strip(size: tuple[int, int], label_y: int, labels: tuple[tuple[str, int], ...],
                y: int, caption_x: int, caption: str, note: str) -> Image.Image:
    """A hand picture's words on a strip of felt of ``size``, mapped to the
    palette: the drawn or offered cards' ``labels`` (text, centre x) at
    ``label_y``, the ``caption`` (cut to fit) at ``(caption_x, y)``, the
    ``note`` below it. Cached: the same categories come back hand after hand."""
    width = size[0]
    strip = Image.new("RGB", size, FELT)
    small = _font(21, True)
    for label, cx in labels:
        _text(strip, (cx, label_y), label, small, GOLD, "mm")
    font = _font(30, True)
    _text(strip, (caption_x, y), _fit(caption, font, width - 2 * HAND_PAD), font, WHITE, "mm")
    if note:
        _text(strip, (width // 2, y + 36), note, _font(21), SOFT, "mm")
    return _part_of(strip)


# ======================================================================= table
@dataclass(frozen=True)
class Seat:
    """One seat's plate at the table: ``figure`` is the balance or chips,
    ``tone`` its sign (colour), ``lives`` hearts to draw, ``tag`` a word such as
    ``to act`` or ``knocked``; ``active`` is dealt in."""

    name: str
    figure: str
    tone: int
    lives: int | None
    tag: str
    dealer: bool
    acting: bool
    active: bool

    def __hash__(self) -> int:
        """The hash the dataclass would give (of its fields, in order), kept
        when ``_seat`` made it: a seat is hashed by every cache it keys."""
        kept = self.__dict__.get("_hash")
        if kept is None:
            kept = hash((self.name, self.figure, self.tone, self.lives, self.tag, self.dealer,
                         self.acting, self.active))
        assert isinstance(kept, int)
        return kept


@dataclass(frozen=True)
class TableScene:
    """What the public table picture shows; every card in it is face up in the
    public observation (``middle``: the widow or middle cards, under
    ``middle_label``, empty without a widow; ``discard``: the top card and the
    pile's size; ``shown``: cards traded face up). ``stock`` is ``None`` when
    it is not shown. ``language``: the language its words are drawn in (part of
    every cache key of its parts, whose few words of their own are translated
    when drawn)."""

    title: str
    status: str
    seats: tuple[Seat, ...]
    pool: str
    stock: int | None
    middle_label: str
    middle: tuple[Card, ...]
    discard: tuple[Card | None, int] | None
    note: str
    shown: tuple[Card, ...]
    language: str = field(default_factory=current)


#: ``Seat``'s fields, in order
_SEAT_FIELDS = tuple(f.name for f in fields(Seat))


def _seat(name: str, figure: str, tone: int, lives: int | None, tag: str, dealer: bool,
          acting: bool, active: bool) -> Seat:
    """``Seat(name, figure, ...)``, made without the frozen dataclass's
    ``__init__`` (which sets a field at a time through ``object.__setattr__``:
    a third of a table scene's time at 12 seats); equal to it in every way.
    The seat made last with the same fields is given again (``_SEATS``): most
    seats of a table are as they were before a move, and the caches keyed by
    a seat find the very same object at once."""
    values = (name, figure, tone, lives, tag, dealer, acting, active)
    seat = _SEATS.get(values)
    if seat is not None:
        return seat
    seat = object.__new__(Seat)
    seat.__dict__.update(zip(_SEAT_FIELDS, values, strict=True))
    seat.__dict__["_hash"] = hash(values)
    _SEATS[values] = seat
    if len(_SEATS) > SEATS_KEPT:
        del _SEATS[next(iter(_SEATS))]
    return seat


#: the seats ``_seat`` made, by their fields (the oldest first; ``clear_cache``
#: empties it)
_SEATS: dict[tuple[object, ...], Seat] = {}
#: the most seats kept in ``_SEATS``
SEATS_KEPT = 2048


def _name(names: Sequence[str], seat: int) -> str:
    """Seat ``seat``'s name as every picture shows it (``_shown_names``); ``Seat n``
    for a seat ``names`` does not name."""
    if seat < len(names):
        return _shown_names(tuple(names), current())[seat]
    return _("Seat {number}").format(number=seat + 1)


@lru_cache(maxsize=1024)
def _shown_names(names: tuple[str, ...], language: str) -> tuple[str, ...]:
    """Each seat's name as the pictures show it, in ``language`` (the current one):
    ``_clean`` of it (``Seat n`` when nothing of it can be drawn), and no two seats
    alike (docs/RELIABILITY.md, "On a public server"). A name that, as the narrowest
    plate shows it (``_name_line`` in ``NAME_ROOM`` pixels: cut to fit), looks like
    an earlier seat's (``names.skeleton``) — its text differed only in characters no
    font draws, or past where the plate cuts it — is cut shorter still and numbered
    `` (2)``, `` (3)``..., which every picture shows whole."""
    shown: list[str] = []
    taken: set[str] = set()
    font = _font(21, True)
    for number, raw in enumerate(names, 1):
        name = _clean(raw)
        if name == "?" and raw.strip() != "?":
            name = _("Seat {number}").format(number=number)
        base, count = name, 1
        while (key := skeleton(_name_line(name, NAME_ROOM)[0])) in taken:
            count += 1
            suffix = f" ({count})"
            name = _fit(base, font, NAME_ROOM - _length(font, suffix)) + suffix
        taken.add(key)
        shown.append(name)
    return tuple(shown)


def _pool_text(obs: Observation) -> str:
    pots = obs.pots or (obs.pool,)
    if len(pots) > 1:
        return " · ".join(f"{_(name)} {v}" for name, v in zip(POT_NAMES, pots, strict=False))
    return f"{_('Pot') if obs.chips is not None else _('Pool')} {pots[0]}"


def table_scene(obs: Observation, names: Sequence[str],
                balances: Sequence[int] | None = None, title: str | None = None) -> TableScene:
    """The scene of the public table from the public observation ``obs``.

    Args:
        obs: ``deal.observation(None)``.
        names: plain display names per seat (no mentions); missing ones are
            drawn as ``Seat n``.
        balances: running balance per seat (``game.running_balances``), or
            ``None`` to show none (chips and lives come from ``obs``).
        title: the header's left text (default: the preset's name).

    Raises:
        ValueError: ``obs`` is a seat's observation, not the public one.
    """
    if obs.seat is not None or obs.hand is not None:
        raise ValueError("the table picture takes the public observation only")
    to_act = obs.to_act if not obs.finished else None
    acting_tag = ""
    if to_act is not None:
        acting_tag = _(ACTING.get(obs.phase, ACTING["turn"]))
        if obs.barter is not None or obs.offer is not None:
            acting_tag = _("answers")
        elif obs.drawing == to_act:
            acting_tag = _("drawing")
    lines = _seat_lines(tuple(names), None if balances is None else tuple(balances),
                        obs.n_seats, obs.active, obs.chips, obs.lives, obs.stood, obs.knocker,
                        obs.dealer, obs.rules.widow_end, current())
    seats = [_seat(name, figure, tone, lives, acting_tag if s == to_act else tag, dealer,
                   s == to_act, active)
             for s, (name, figure, tone, lives, tag, dealer, active) in enumerate(lines)]
    middle = (obs.widow or ()) if obs.widow is not None else ()
    discard = (obs.discard_top, obs.discard_count) if obs.chips is not None else None
    stock = obs.stock_count if obs.widow is None or obs.stock_count else None
    note = ""
    if obs.lives is not None and obs.rules.horse:
        note = _("a horse is for sale") if obs.horse_available else _("the horse is taken")
    return TableScene(
        title=_clean(title) if title is not None else obs.rules.name,
        status=status_line(obs, lambda seat: _name(names, seat), PICTURE),
        seats=tuple(seats),
        pool=_pool_text(obs),
        stock=stock,
        middle_label=middle_word(obs) if obs.widow is not None else "",
        middle=tuple(middle),
        discard=discard,
        note=note,
        shown=tuple(obs.shown_waste),
    )


#: a seat's plate as ``table_scene`` makes it, but for the seat to act: name,
#: figure, tone, lives, tag, dealer, active (``Seat``'s fields less ``acting``)
SeatLine = tuple[str, str, int, int | None, str, bool, bool]


@lru_cache(maxsize=256)
def _seat_lines(names: tuple[str, ...], balances: tuple[int, ...] | None, n_seats: int,
                dealt: tuple[int, ...], chips: tuple[int, ...] | None,
                all_lives: tuple[int, ...] | None, stood: tuple[int, ...], knocker: int | None,
                dealer: int, widow_end: str, language: str) -> tuple[SeatLine, ...]:
    """Each seat's plate (``table_scene``) as it is when that seat is not to
    act, from the public observation's fields of the same names (``dealt``:
    its ``active``) and the table's names and balances; ``language``: the
    current one (a key of the cache). Cached: a move changes only whose turn it
    is at most tables, and the two scenes around it share these."""
    active = set(dealt) if dealt else set(range(n_seats))
    lines = []
    for s in range(n_seats):
        figure, tone = "", 0
        if balances is not None and s < len(balances):
            figure, tone = _signed(balances[s]), balances[s]
        if chips is not None:
            figure, tone = (plural(chips[s], "chip"), 0) if chips[s] else (_("out"), -1)
        lives = all_lives[s] if all_lives is not None else None
        tag = ""
        if s not in active:
            tag = _("out") if (lives == 0 or (chips is not None and not chips[s])) \
                else _("sits out")
        elif s in stood:
            tag = _("knocked") if widow_end == "two_knocks" else _("stands")
        elif knocker == s:
            tag = _("knocked")
        lines.append((_name(names, s), figure, (tone > 0) - (tone < 0), lives, tag, s == dealer,
                      s in active))
    return tuple(lines)


def table_png(obs: Observation, names: Sequence[str], balances: Sequence[int] | None = None,
              *, title: str | None = None) -> bytes:
    """PNG of the public table: the seats round it (name, balance or chips, lives,
    the dealer's D, the seat to act outlined in gold), the pool or pots, the stock
    and every face-up card (widow or middle, discard top, cards traded face up).
    800 pixels wide, about 440 tall (more with cards traded face up).

    Built from the public observation only (arguments as ``table_scene``).

    Raises:
        ValueError: ``obs`` is a seat's observation.
    """
    return draw_table(table_scene(obs, names, balances, title))


#: the most characters Discord keeps of an attachment's description
ALT_LIMIT = 1024


def _alt(parts: Sequence[str]) -> str:
    """The sentences ``parts`` as one description, cut to ``ALT_LIMIT``."""
    text = " ".join(p for p in parts if p)
    return text if len(text) <= ALT_LIMIT else text[:ALT_LIMIT - 1] + "…"


def table_alt(obs: Observation, names: Sequence[str], balances: Sequence[int] | None = None,
              *, title: str | None = None) -> str:
    """The table picture's description (arguments as ``table_png``), from the same
    public scene: the header, every seat (dealer, balance or chips, lives, what it
    is doing), the pool, the stock and every face-up card, e.g. ``"Table: foster ·
    deal 2. Ben to act. Seats: Ann (dealer) +1; Ben −1, to act; Cat ±0. Pool 3.
    Stock: 43 cards."``. It names no card the public may not see.

    Raises:
        ValueError: ``obs`` is a seat's observation.
    """
    return table_scene_alt(table_scene(obs, names, balances, title))


def table_scene_alt(scene: TableScene) -> str:
    """``table_alt`` of the scene it is drawn from (``table_scene``): a picture
    and its description made from one scene (``bot.ui.media``)."""
    seats = []
    for seat in scene.seats:
        words = [_("{name} (dealer)").format(name=seat.name) if seat.dealer else seat.name]
        if seat.figure:
            words.append(seat.figure)
        what = [plural(seat.lives, "life")] if seat.lives is not None else []
        what += [seat.tag] if seat.tag else []
        seats.append(" ".join(words) + "".join(", " + w for w in what))
    parts = [_("Table: {title}.").format(title=scene.title),
             f"{scene.status}." if scene.status else "",
             _("Seats: {seats}.").format(seats="; ".join(seats)), f"{scene.pool}."]
    if scene.stock is not None:
        parts.append(_("Stock: {cards}.").format(cards=plural(scene.stock, "card")))
    if scene.middle:
        parts.append(_("Face up ({middle}): {cards}.").format(
            middle=scene.middle_label, cards=" ".join(card_label(c) for c in scene.middle)))
    if scene.discard is not None:
        top, count = scene.discard
        parts.append(_("Discard pile: {cards}, {card} on top.").format(
            cards=plural(count, "card"), card=hand_label([top])) if top is not None
            else _("Discard pile: {cards}.").format(cards=plural(count, "card")))
    if scene.shown:
        parts.append(_("Traded face up: {cards}.").format(cards=hand_label(scene.shown)))
    if scene.note:
        parts.append(f"{scene.note[:1].upper()}{scene.note[1:]}.")
    return _alt(parts)


TABLE_W = 800
MARGIN = 16
HEADER = 46
PLATE_W = 182
#: the narrowest room a seat's name has in a picture (a dealer's plate): ``_shown_names``
NAME_ROOM = PLATE_W - 24 - 20
PLATE_H = 66
GAP = 12
MID_CARD = 76
SHOWN_CARD = 56  # cards traded face up, and the showdown's cards


def _sides(n: int) -> int:
    """Plates on each side of a table of ``n`` seats (the rest sit above and below)."""
    return 0 if n <= 3 else 1 if n <= 8 else 2


@lru_cache(maxsize=64)
def _seat_boxes(n: int, top: int, bottom: int) -> tuple[tuple[int, int], ...]:
    """Top-left corners of ``n`` plates in seat order, clockwise round the table
    from the bottom middle: bottom row right to left, left column upwards, top row
    left to right, right column downwards. ``top``/``bottom``: the rows' y."""
    sides = _sides(n)
    rest = n - 2 * sides
    n_top, n_bottom = -(-rest // 2), rest // 2

    def row(k: int) -> list[int]:
        gap = min(3 * GAP, (TABLE_W - 2 * MARGIN - k * PLATE_W) // max(1, k - 1))
        left = (TABLE_W - k * PLATE_W - (k - 1) * gap) // 2
        return [left + i * (PLATE_W + gap) for i in range(k)]

    middle = (top + PLATE_H + bottom) // 2
    column = [middle - PLATE_H // 2] if sides == 1 else \
        [middle - PLATE_H - GAP // 2, middle + GAP // 2]
    boxes = [(x, bottom) for x in reversed(row(n_bottom))]
    boxes += [(MARGIN, y) for y in reversed(column[:sides])]
    boxes += [(x, top) for x in row(n_top)]
    boxes += [(TABLE_W - MARGIN - PLATE_W, y) for y in column[:sides]]
    return tuple(boxes)


def _draw_seat_plate(draw: ImageDraw.ImageDraw, acting: bool, x: int, y: int) -> None:
    """A seat's bare plate at ``(x, y)``: outlined in gold for the seat to act."""
    box = (x, y, x + PLATE_W, y + PLATE_H)
    if acting:
        _draw_plate(draw, (x - 3, y - 3, x + PLATE_W + 3, y + PLATE_H + 3), fill=GOLD,
                    outline=GOLD, radius=14)
    _draw_plate(draw, box, fill=PLATE_ACTING if acting else PLATE,
                outline=GOLD if acting else PLATE_EDGE, width=2)


@lru_cache(maxsize=1024)
def _name_line(name: str, room: int) -> tuple[str, ImageFont.FreeTypeFont]:
    """A seat's name as its plate shows it in ``room`` pixels: cut to fit
    (``_fit``) in its font (``_name_font``). Cached."""
    font = _name_font(name, room)
    return _fit(name, font, room), font


def _name_font(name: str, room: float) -> ImageFont.FreeTypeFont:
    """The font of a seat's name on its plate, ``room`` pixels wide: bold 21; a
    name a little too long for it in bold 18 or 16, whole ("🤖 AI Babbage"); a
    name too long even then in bold 21, cut by ``_fit``."""
    return next((f for f in (_font(21, True), _font(18, True), _font(16, True))
                 if _length(f, name) <= room), _font(21, True))


class _Heart(NamedTuple):
    """A life's heart (``_pip(2, 16, fill)``) pasted at ``xy``."""

    fill: tuple[int, int, int]
    xy: tuple[int, int]


class _TagPill(NamedTuple):
    """A tag's pill (``_pill(width, fill, outline)``) pasted at ``xy``, its
    ``words`` (``_text``'s arguments) drawn on it."""

    width: int
    fill: tuple[int, int, int]
    outline: tuple[int, int, int]
    xy: tuple[int, int]
    words: Words


class _Disc(NamedTuple):
    """The dealer's disc (``_dealer_disc``) pasted at ``xy``."""

    xy: tuple[int, int]


#: what a seat's plate shows, one thing (``_plate_ops``): words (``_text``'s
#: arguments), a heart, the tag's pill with its words, the dealer's disc
PlateOp = Words | _Heart | _TagPill | _Disc


def _plate_ops(seat: Seat, x: int, y: int) -> list[PlateOp]:
    """What ``_draw_seat`` draws on a seat's bare plate at ``(x, y)``, in the
    order it is drawn."""
    ops: list[PlateOp] = []
    ink = WHITE if seat.active else DIM
    name, name_font = _name_line(seat.name, PLATE_W - 24 - (20 if seat.dealer else 0))
    ops.append(((x + 12, y + 20), name, name_font, ink, "lm"))
    fx = x + 12
    line = y + 47
    if seat.figure:
        font = _font(19, True)
        tone = PLUS if seat.tone > 0 else MINUS if seat.tone < 0 else ink
        ops.append(((fx, line), seat.figure, font, tone if seat.active else DIM, "lm"))
        fx += round(_length(font, seat.figure)) + 8
    if seat.lives:
        for _life in range(min(seat.lives, 5)):
            ops.append(_Heart(RED if seat.active else DIM, (fx, line - 8)))
            fx += 19
        if seat.lives > 5:
            ops.append(((fx, line), f"×{seat.lives}", _font(16), ink, "lm"))
    elif seat.lives == 0 and not seat.figure:
        ops.append(((fx, line), _("no lives"), _font(17), DIM, "lm"))
    if seat.tag:  # a pill on the plate's lower edge
        font = _font(14, True)
        text = seat.tag.upper()
        right, mid = x + PLATE_W - 12, y + PLATE_H
        left = right - round(_length(font, text)) - 16
        fill, ink = (GOLD, EDGE) if seat.acting else (PLATE_EDGE, WHITE) if seat.active \
            else (PLATE, DIM)
        ops.append(_TagPill(right - left, fill, GOLD if seat.acting else PLATE_EDGE,
                            (left, mid - 10), (((left + right) // 2, mid + 1), text, font, ink,
                                               "mm")))
    if seat.dealer:
        ops.append(_Disc((x + PLATE_W - 28, y + 6)))
    return ops


def _draw_seat(img: Image.Image, draw: ImageDraw.ImageDraw, seat: Seat, x: int, y: int, *,
               plate: bool = True) -> None:
    """A seat's plate at ``(x, y)`` and what it says (``plate=False``: the bare
    plate is drawn already, ``_plate_ground``)."""
    if plate:
        _draw_seat_plate(draw, seat.acting, x, y)
    for op in _plate_ops(seat, x, y):
        if isinstance(op, _Heart):
            heart = _pip(2, 16, op.fill)
            _put(img, heart, op.xy, heart)
        elif isinstance(op, _TagPill):
            pill = _pill(op.width, op.fill, op.outline)
            _put(img, pill, op.xy, pill)
            _text(img, *op.words)
        elif isinstance(op, _Disc):
            disc = _dealer_disc()
            _put(img, disc, op.xy, disc)
        else:
            _text(img, *op)


def _seat_tiles(sides: int, seat: Seat, x: int, y: int) -> Image.Image | None:
    """``_seat_part`` put together from tiles already mapped, or ``None`` where
    it cannot be: the bare plate mapped (``_plate_mapped``), each word and heart
    as a tile on the plate's plain fill (``_word_tiles``, ``_heart_on``: each
    wholly on it, none meeting another), then the tag's pill with its words and
    the dealer's disc pasted through their masks (drawn opaque or not at all:
    ``_pill_tile``, ``_disc_tile``), in ``_draw_seat``'s order."""
    box = _seat_box(seat, x, y)
    size = (box[2] - box[0], box[3] - box[1])
    ops = _plate_ops(seat, x - box[0], y - box[1])
    key = ("plate", sides, box, seat.acting, x, y)
    ground = partial(_plate_ground, sides, box, seat.acting, x, y)
    words = [op for op in ops if not isinstance(op, (_Heart, _TagPill, _Disc))]
    tiles = _word_tiles(key, ground, words, [(0, 0, *size)])
    if tiles is None:
        return None
    boxes = [(tx, ty, tx + tile.size[0], ty + tile.size[1]) for tile, (tx, ty) in tiles]
    for op in ops:
        if isinstance(op, _Heart):
            heart = (*op.xy, op.xy[0] + 16, op.xy[1] + 16)
            colour = _plain(key, ground, heart) if 0 <= heart[0] and 0 <= heart[1] \
                and heart[2] <= size[0] and heart[3] <= size[1] else None
            if colour is None or any(_meets(heart, other) for other in boxes):
                return None
            tiles.append((_heart_on(op.fill, colour), op.xy))
            boxes.append(heart)
    masked: list[tuple[Image.Image, tuple[int, int], Image.Image]] = []
    for op in ops:
        if isinstance(op, _TagPill):
            (tx, ty), text, font, ink, anchor = op.words
            pill = _pill_tile(op.width, op.fill, op.outline,
                              ((tx - op.xy[0], ty - op.xy[1]), text, font, ink, anchor))
            if pill is None:
                return None
            masked.append((pill[0], op.xy, pill[1]))
        elif isinstance(op, _Disc):
            disc = _disc_tile()
            masked.append((disc[0], op.xy, disc[1]))
    part = _cut(_plate_mapped(sides, box, seat.acting, x, y))
    _put_tiles(part, tiles)
    for tile, xy, mask in masked:
        _put(part, tile, xy, mask)
    return part


@lru_cache(maxsize=96)
def _plate_mapped(sides: int, box: tuple[int, int, int, int], acting: bool, x: int,
                  y: int) -> Image.Image:
    """``_plate_ground`` mapped to the palette."""
    return _part_of(_plate_ground(sides, box, acting, x, y))


@lru_cache(maxsize=16)
def _heart_on(fill: tuple[int, int, int], ground: tuple[int, int, int]) -> Image.Image:
    """A life's heart (``_pip(2, 16, fill)``) pasted on plain ``ground``, mapped."""
    heart = _pip(2, 16, fill)
    tile = Image.new("RGB", heart.size, ground)
    _put(tile, heart, (0, 0), heart)
    return _part_of(tile)


@lru_cache(maxsize=1)
def _disc_tile() -> tuple[Image.Image, Image.Image]:
    """The dealer's disc mapped, and its mask: drawn opaque or not at all."""
    disc = _dealer_disc()
    return _part_of(disc.convert("RGB")), disc.getchannel("A")


@lru_cache(maxsize=64)
def _pill_tile(width: int, fill: tuple[int, int, int], outline: tuple[int, int, int],
               words: Words) -> tuple[Image.Image, Image.Image] | None:
    """A tag's pill (``_pill``) with ``words`` (in its coordinates) drawn on it,
    mapped, and its mask (the pill is drawn opaque or not at all): pasted
    through the mask, the pixels of pasting the pill and drawing the words, as
    long as the words fall on the pill alone (else ``None``)."""
    pill = _pill(width, fill, outline)
    alpha = pill.getchannel("A")
    (x, y), text, font, ink, anchor = words
    fx, fy = x - math.floor(x), y - math.floor(y)
    mask, ox, oy = _mask_of(text, font, anchor, fx, fy)
    left, top = math.floor(x) - ox, math.floor(y) - oy
    ink_box = mask.getbbox()
    if ink_box is None:
        return None
    if left + ink_box[0] < 0 or top + ink_box[1] < 0 or left + ink_box[2] > pill.width \
            or top + ink_box[3] > pill.height:
        return None
    cover = Image.new("L", pill.size, 0)
    cover.paste(mask, (left, top))
    if ImageChops.darker(cover, ImageChops.invert(alpha)).getbbox() is not None:
        return None  # some of the words off the pill
    rgb = Image.new("RGB", pill.size, fill)
    _put(rgb, pill, (0, 0), pill)
    _text(rgb, (x, y), text, font, ink, anchor)
    return _part_of(rgb), alpha


@lru_cache(maxsize=64)
def _pill(width: int, fill: tuple[int, int, int], outline: tuple[int, int, int]) -> Image.Image:
    """A tag's pill ``width`` pixels wide (RGBA, opaque where drawn): what
    ``rounded_rectangle((0, 0, width, 20), radius=10)`` draws, pasted at its corner."""
    img = Image.new("RGBA", (width + 1, 21), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, width, 20), radius=10, fill=fill + (255,),
                                          outline=outline + (255,), width=1)
    return img


@lru_cache(maxsize=1)
def _dealer_disc() -> Image.Image:
    """The dealer's white disc with its D (RGBA, opaque where drawn), 25 pixels
    square: pasted at the plate's top right corner."""
    img = Image.new("RGBA", (25, 25), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((0, 0, 24, 24), fill=WHITE + (255,), outline=EDGE + (255,),
                                width=2)
    _text(img, (12, 13), "D", _font(15, True), EDGE, "mm")
    return img


def _seat_box(seat: Seat, x: int, y: int) -> tuple[int, int, int, int]:
    """The pixels a plate drawn at ``(x, y)`` may touch (left, top, right, bottom;
    right and bottom excluded): the gold outline of the seat to act, the tag's
    pill on the lower edge."""
    out = 3 if seat.acting else 0
    below = 11 if seat.tag else out + 1
    return x - out, y - out, x + PLATE_W + out + 1, y + PLATE_H + below


def _shown_layout(count: int) -> tuple[int, int, int]:
    """(cards per row, step between cards, rows) for ``count`` fanned small cards."""
    span = TABLE_W - 2 * MARGIN - SHOWN_CARD
    step = 26
    per_row = max(1, span // step + 1)
    rows = max(1, -(-count // per_row))
    per_row = -(-count // rows)
    step = min(SHOWN_CARD + 8, span // max(1, per_row - 1)) if per_row > 1 else SHOWN_CARD
    return per_row, step, rows


@dataclass(frozen=True)
class _Frame:
    """Where the parts of a table picture go, for ``sides`` plates on each side:
    the top and bottom rows' y, the centre's box and the table's height (the
    cards traded face up come below it)."""

    sides: int
    top: int
    bottom: int
    centre: tuple[int, int, int, int]
    height: int


@lru_cache(maxsize=4)
def _frame(sides: int) -> _Frame:
    top = MARGIN + HEADER
    centre_h = max(196, sides * PLATE_H + (sides - 1) * GAP + 2 * GAP)
    bottom = top + PLATE_H + GAP + centre_h + GAP
    cx0 = MARGIN + PLATE_W + 2 * GAP if sides else MARGIN + 2 * GAP
    cy0 = top + PLATE_H + GAP
    # the centre's box: a little wider than its own columns (labels under a pile
    # may pass them), clear of the plates round it
    centre = (cx0 - 16, cy0, TABLE_W - cx0 + 16, cy0 + centre_h)
    return _Frame(sides, top, bottom, centre, bottom + PLATE_H + MARGIN + 6)


@lru_cache(maxsize=8)
def _table_ground(sides: int, height: int) -> tuple[Image.Image, Image.Image]:
    """The felt and the table top (its rim and its lighter felt), ``height``
    pixels tall: RGB to draw parts on, and mapped to the palette and framed
    (``_framed``: one pixel to the right) to paste the parts into. Drawn once
    per size."""
    frame = _frame(sides)
    img = Image.new("RGB", (TABLE_W, height), FELT)
    draw = ImageDraw.Draw(img)
    tx0 = MARGIN + PLATE_W // 2
    table = (tx0, frame.top + PLATE_H // 2, TABLE_W - tx0, frame.bottom + PLATE_H // 2)
    draw.rounded_rectangle(table, radius=90, fill=RIM)
    draw.rounded_rectangle((table[0] + 8, table[1] + 8, table[2] - 8, table[3] - 8), radius=82,
                           fill=FELT_LIGHT)
    return img, _framed(_quantize(img))


def _part(sides: int, box: tuple[int, int, int, int],
          paint: Callable[[Image.Image, ImageDraw.ImageDraw], None]) -> Image.Image:
    """One part of a table picture, mapped to the palette: ``paint`` draws it on
    the piece of the bare table under ``box``, in that piece's coordinates (the
    picture's, less the box's corner: whole pixels, so the same pixels). Pasted
    side by side, parts that stay in their boxes give the picture that drawing
    them all on one canvas would."""
    canvas = _table_ground(sides, _frame(sides).height)[0].crop(box)
    paint(canvas, ImageDraw.Draw(canvas))
    return _part_of(canvas)


#: a mask's bytes from the difference of two pictures' indices: 0 where they are
#: equal, 255 (drawn) where they differ
_DRAWN = bytes([0] + [255] * 255)


@lru_cache(maxsize=96)
def _plate_ground(sides: int, box: tuple[int, int, int, int], acting: bool, x: int,
                  y: int) -> Image.Image:
    """The bare table under ``box`` (RGB) with a seat's bare plate drawn at
    ``(x, y)`` (picture coordinates): the same for every seat that sits there
    with the same ``acting``, whatever it says."""
    canvas = _table_ground(sides, _frame(sides).height)[0].crop(box)
    _draw_seat_plate(ImageDraw.Draw(canvas), acting, x - box[0], y - box[1])
    return canvas


@lru_cache(maxsize=384)
def _seat_part(sides: int, seat: Seat, x: int, y: int, language: str) -> Image.Image:
    """A seat's plate at ``(x, y)``, the piece of the table under its box
    (``_seat_box``) with the plate drawn on it, mapped to the palette (cached by
    content and place: a move redraws only the plates it changed).
    ``language``: the words' language (a key of the cache)."""
    tiled = _seat_tiles(sides, seat, x, y)
    if tiled is not None:
        return tiled
    box = _seat_box(seat, x, y)
    canvas = _plate_ground(sides, box, seat.acting, x, y).copy()
    _draw_seat(canvas, ImageDraw.Draw(canvas), seat, x - box[0], y - box[1], plate=False)
    return _part_of(canvas)


@lru_cache(maxsize=64)
def _seat_mask(sides: int, seat: Seat, x: int, y: int, language: str) -> Image.Image:
    """The mask (mode ``L``, 0 or 255) of the pixels ``_seat_part`` draws: where
    a plate's box meets another part's (a tag's pill may reach the gold outline
    of the plate below it), each must cover only what it draws, as when drawn
    one after another."""
    part = _seat_part(sides, seat, x, y, language)
    box = _seat_box(seat, x, y)
    ground = _table_ground(sides, _frame(sides).height)[1].crop(
        (box[0] + 1, box[1], box[2] + 1, box[3]))  # framed: one pixel to the right
    differ = ImageChops.difference(part, ground).tobytes()  # of the indices
    return Image.frombytes("L", part.size, differ.translate(_DRAWN))


#: the header's height: the top row's gold outline starts below
HEADER_H = MARGIN + HEADER - 3
#: room left round each text of the header in its part (glyphs reach a little
#: past their advance)
HEADER_PAD = 8


@lru_cache(maxsize=64)
def _header_texts(title: str, status: str) -> tuple[str, str, int, int]:
    """The header's title and status as drawn (the status keeps its room; the
    title is cut to what is left), where the title's part ends and where the
    status's part starts (they never overlap)."""
    title_font, status_font = _font(20), _font(21, True)
    status = _fit(status, status_font, TABLE_W - 2 * MARGIN - 150)
    status_w = _length(status_font, status)
    title = _fit(title, title_font, TABLE_W - 2 * MARGIN - status_w - 24)
    title_end = min(TABLE_W, MARGIN + 4 + math.ceil(_length(title_font, title)) + HEADER_PAD)
    status_start = max(title_end, TABLE_W - MARGIN - 4 - math.ceil(status_w) - HEADER_PAD)
    return title, status, title_end, status_start


@lru_cache(maxsize=32)
def _title_part(title: str, end: int) -> Image.Image:
    """The header's title (as ``_header_texts`` cut it), on the left up to ``end``."""
    return _words_part(0, (0, 0, end, HEADER_H), [
        ((MARGIN + 4, MARGIN + HEADER // 2 - 4), title, _font(20), SOFT, "lm")])


@lru_cache(maxsize=64)
def _status_part(status: str, start: int) -> Image.Image:
    """The header's status in gold (as ``_header_texts`` cut it), on the right
    from ``start``: a move redraws this part only."""
    return _words_part(0, (start, 0, TABLE_W, HEADER_H), [
        ((TABLE_W - MARGIN - 4 - start, MARGIN + HEADER // 2 - 4), status, _font(21, True), GOLD,
         "rm")])


#: the centre's three bands, from its top (``_Frame.centre``): the pool's line,
#: the piles' cards (a pile's second back reaches 5 pixels above them, their
#: shadows 2 below) and the piles' labels with the note; each band draws only
#: its own, so they never overlap
POOL_BAND = 35
CARDS_BAND = 40 + card_height(MID_CARD) + 2


@lru_cache(maxsize=64)
def _centre_band(sides: int, band: str, pool: str, stock: int | None, middle_label: str,
                 middle: tuple[Card, ...], discard: tuple[Card | None, int] | None,
                 note: str, language: str) -> Image.Image:
    """One band of the centre of the table (``pool``, ``cards`` or ``labels``),
    cached by what it shows: a move that changes the pool or a pile's count
    redraws that band only (callers pass only what the band shows); ``language``:
    the words' language (a key of the cache)."""
    frame = _frame(sides)
    left, top, right, bottom = frame.centre
    start, end = {"pool": (0, POOL_BAND), "cards": (POOL_BAND, CARDS_BAND),
                  "labels": (CARDS_BAND, bottom - top)}[band]
    box = (left, top + start, right, top + end)
    if band != "cards":  # words only
        words: list[Words] = []
        _draw_centre(*_nowhere(), frame, pool, stock, middle_label, middle, discard, note,
                     origin=box[:2], only=band, words=words)
        return _words_part(sides, box, words)
    layers: list[Layer] = []
    _draw_centre(*_nowhere(), frame, pool, stock, middle_label, middle, discard, note,
                 origin=box[:2], only=band, layers=layers)
    return _layered_part(sides, box, layers)


@lru_cache(maxsize=1)
def _nowhere() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A picture to pass where nothing is drawn on it (``_draw_centre``'s words)."""
    img = Image.new("RGB", (1, 1))
    return img, ImageDraw.Draw(img)


@lru_cache(maxsize=16)
def _shown_part(shown: tuple[Card, ...], language: str) -> Image.Image:
    """The cards traded face up, on the felt below the table (drawn from y = 0),
    titled in ``language``."""
    texts: list[Words] = []
    layers: list[Layer] = []
    _draw_shown(_nowhere()[0], shown, 0, words=texts, layers=layers)
    return _layered_part(None, (0, 0, TABLE_W, _shown_height(len(shown))), layers, texts)


#: a part of a table picture and where it goes (``_placements``): the pixels it
#: covers (picture coordinates, right and bottom excluded), the part or what
#: draws it (or takes it from its cache), and for a plate its mask or what
#: makes it (``_seat_mask``: the pixels it draws, used where its box meets
#: another part's)
Placed = tuple[tuple[int, int, int, int], "Image.Image | Callable[[], Image.Image]",
               "Image.Image | Callable[[], Image.Image] | None"]


def _placements(frame: _Frame, scene: TableScene, height: int,
                before: _LastFrame | None = None) -> list[Placed]:
    """The parts of ``scene``'s picture in the order they are pasted: the
    header's title and status, the centre's bands, the plates, the cards traded
    face up. ``before``: the last picture of the same table; a seat the very
    same as there (``_seat`` gives it again), in the same language, takes its
    part and mask as they were, with no cache looked up."""
    sides, lang = frame.sides, scene.language
    title, status, title_end, status_start = _header_texts(scene.title, scene.status)
    placed: list[Placed] = [
        ((0, 0, title_end, HEADER_H), lambda: _title_part(title, title_end), None),
        ((status_start, 0, TABLE_W, HEADER_H), lambda: _status_part(status, status_start), None)]
    left, top, right, bottom = frame.centre
    for band, (args, down) in zip(("pool", "cards", "labels"), _centre_args(scene), strict=True):
        end = {"pool": POOL_BAND, "cards": CARDS_BAND, "labels": bottom - top}[band]
        placed.append(((left, top + down, right, top + end),
                       partial(_centre_band, sides, band, *args, lang), None))
    n = len(scene.seats)
    first = len(placed)
    seats_before: tuple[Seat, ...] = ()
    if before is not None and before.language == lang and len(before.seats) == n:
        seats_before = before.seats
    for i, (seat, (px, py)) in enumerate(zip(scene.seats, _seat_boxes(n, frame.top, frame.bottom),
                                             strict=True)):
        if seats_before and seats_before[i] is seat:
            assert before is not None
            box, part, mask = before.pasted[first + i]
            placed.append((box, part, mask if mask is not None
                           else partial(_seat_mask, sides, seat, px, py, lang)))
        else:
            placed.append((_seat_box(seat, px, py), partial(_seat_part, sides, seat, px, py, lang),
                           partial(_seat_mask, sides, seat, px, py, lang)))
    if scene.shown:
        shown = scene.shown
        placed.append(((0, frame.height, TABLE_W, height), lambda: _shown_part(shown, lang),
                       None))
    return placed


def _meets(box: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> bool:
    """Two boxes (left, top, right, bottom; right and bottom excluded) share a pixel."""
    return box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]


@lru_cache(maxsize=64)
def draw_table(scene: TableScene) -> bytes:
    """PNG of a table scene (cached by scene). The picture is put together from
    parts cached by what they show — the bare table per size, the header, each
    plate, the centre, the cards traded face up — already mapped to the palette,
    so a move redraws only what it changed, and the rest is pasting and the PNG
    encoding. A plate is pasted through its mask (``_seat_mask``) only where its
    box meets another part's: elsewhere the pixels it does not draw are the bare
    table's, as under it."""
    n = len(scene.seats)
    frame = _frame(_sides(n))
    height = frame.height + _shown_height(len(scene.shown))
    ground = _table_ground(frame.sides, height)[1]  # framed: parts go one to the right
    key = (frame.sides, height, scene.title)
    last = _LAST_FRAMES.pop(key, None)  # taken: no other call can use it meanwhile
    if last is not None and last.ground is not ground:
        last = None
    placed = _placements(frame, scene, height, last)
    meeting = _meeting(tuple(p[0] for p in placed))
    pasted: list[Pasted] = []
    for (box, make, masker), meets in zip(placed, meeting, strict=True):
        mask = None if not meets or masker is None \
            else masker if isinstance(masker, Image.Image) else masker()
        pasted.append((box, make if isinstance(make, Image.Image) else make(), mask))
    if last is None:
        img, rows = _canvas(ground)
        for box, part, mask in pasted:
            _put(img, part, (box[0] + 1, box[1]), mask)
    else:
        img, rows = last.img, last.rows
        _repaste(img, ground, last.pasted, pasted)
    png = _encode_rows(rows, img.size, smaller_over=TABLE_LARGE)
    _LAST_FRAMES[key] = _LastFrame(ground, img, rows, pasted, scene.seats, scene.language)
    while len(_LAST_FRAMES) > LAST_FRAMES:
        del _LAST_FRAMES[next(iter(_LAST_FRAMES))]
    return png


#: a part as pasted on a table picture: its box, the part, the mask it went through
Pasted = tuple[tuple[int, int, int, int], Image.Image, Image.Image | None]


@dataclass
class _LastFrame:
    """The canvas of the last picture drawn of a table (``_canvas`` on ``ground``)
    and the parts pasted on it, in order: the next picture of the same table
    starts from it and pastes again only where its parts differ (``_repaste``);
    its scene's seats and language (``_placements``)."""

    ground: Image.Image
    img: Image.Image
    rows: bytearray
    pasted: list[Pasted]
    seats: tuple[Seat, ...]
    language: str


#: the tables' last pictures, by (sides, height, title) (the title names the
#: table and its deal), the one used last at the end; ``clear_cache`` empties it
_LAST_FRAMES: dict[tuple[int, int, str], _LastFrame] = {}
#: the most last pictures kept (about 0.4 MB each)
LAST_FRAMES = 32


def _repaste(img: Image.Image, ground: Image.Image, before: Sequence[Pasted],
             now: Sequence[Pasted]) -> None:
    """Turn ``img``, the parts ``before`` pasted in order on ``ground`` (framed,
    the parts one pixel to the right), into the parts ``now`` pasted so, with
    as little pasting as it takes. A part the same as before (the same box, the
    same part and mask: they are cached) is left as it is; a part pasted whole
    (no mask: its box meets no other) in the box of one pasted whole before is
    pasted over it. Anywhere else that changed (the box of a part gone, or of a
    part through its mask) the ground is put back and every part of ``now``
    whose box meets it is pasted again, in order; a part pasted again changes
    its whole box, so the parts meeting that are pasted again too, and so on.
    The ground is not put back where a part pasted again whole (its box the
    size of the part) covers all of such a box: nothing under it shows.
    Elsewhere every pixel comes from the same parts in the same order as
    before: the pixels are those of pasting ``now`` on a copy of the ground."""
    old = {box: (part, mask) for box, part, mask in before}
    again = [False] * len(now)
    dirty: list[tuple[int, int, int, int]] = []
    for i, (box, part, mask) in enumerate(now):
        was = old.pop(box, None)
        if was is not None and was[0] is part and was[1] is mask:
            continue
        again[i] = True
        if mask is not None or was is None or was[1] is not None:
            dirty.append(box)
    dirty += old  # the boxes of the parts gone
    if dirty:
        core, under = img.im, ground.im
        # the boxes of parts pasted again whole: the ground under them is never seen
        whole = [now[i][0] for i, changed in enumerate(again) if changed and now[i][2] is None]
        for box in dirty:
            if not _covered(box, whole):
                place = (box[0] + 1, box[1], box[2] + 1, box[3])
                core.paste(under.crop(place), place)
        _spread(core, under, now, again, dirty)
    for (box, part, mask), changed in zip(now, again, strict=True):
        if changed:
            _put(img, part, (box[0] + 1, box[1]), mask)


def _spread(core: _imaging.ImagingCore, under: _imaging.ImagingCore, now: Sequence[Pasted],
            again: list[bool], dirty: list[tuple[int, int, int, int]]) -> None:
    """``_repaste``'s spreading: every part of ``now`` not marked in ``again``
    whose box meets one of ``dirty`` is marked and its box added to ``dirty``,
    until nothing more meets; the ground (``under``) is put back on the canvas
    (``core``) in the box of each part so marked that goes through its mask
    (one pasted whole covers its box)."""
    waiting = [i for i, changed in enumerate(again) if not changed]
    grown = True
    while grown:
        grown = False
        for i in waiting:
            box = now[i][0]
            for d in dirty:
                if box[0] < d[2] and d[0] < box[2] and box[1] < d[3] and d[1] < box[3]:
                    break
            else:
                continue
            again[i] = grown = True
            dirty.append(box)
            if now[i][2] is not None:
                place = (box[0] + 1, box[1], box[2] + 1, box[3])
                core.paste(under.crop(place), place)
        waiting = [i for i in waiting if not again[i]]


def _covered(box: tuple[int, int, int, int], boxes: Sequence[tuple[int, int, int, int]]) -> bool:
    """``box`` lies wholly in one of ``boxes``."""
    return any(b[0] <= box[0] and b[1] <= box[1] and box[2] <= b[2] and box[3] <= b[3]
               for b in boxes)


@lru_cache(maxsize=256)
def _meeting(boxes: tuple[tuple[int, int, int, int], ...]) -> tuple[bool, ...]:
    """For each box, whether it meets another of ``boxes``."""
    return tuple(any(j != i and _meets(box, other) for j, other in enumerate(boxes))
                 for i, box in enumerate(boxes))


def _centre_args(scene: TableScene) -> list[tuple[tuple[object, ...], int]]:
    """What each of the centre's bands shows (the arguments of ``_centre_band``
    after ``sides`` and ``band``, before ``language``) and where it starts
    below the centre's top."""
    stock, discard = scene.stock, scene.discard
    piles = None if stock is None else min(stock, 2)  # the cards show 0, 1 or a pile
    top_card = None if discard is None else (discard[0], 0)
    # the labels place the piles by their number of cards alone: any card stands
    # for each (a trade with the middle leaves the labels' band as it was)
    counted = (DECK[0],) * len(scene.middle)
    labelled = None if discard is None else \
        (None if discard[0] is None else DECK[0], discard[1])
    return [((scene.pool, None, "", (), None, ""), 0),
            (("", piles, scene.middle_label, scene.middle, top_card, ""), POOL_BAND),
            (("", stock, scene.middle_label, counted, labelled, scene.note), CARDS_BAND)]


#: compressed pixels of a table picture above which it is compressed again, harder:
#: a table with many cards traded face up (it keeps under 20 KB, issue 22)
TABLE_LARGE = 18 * 1024


def _shown_height(count: int) -> int:
    """Pixels below the table for ``count`` cards traded face up (0 for none)."""
    if not count:
        return 0
    _, _, rows = _shown_layout(count)
    return 34 + card_height(SHOWN_CARD) + (rows - 1) * (card_height(SHOWN_CARD) // 2 + 6) \
        + MARGIN


def _draw_table_header(img: Image.Image, title: str, status: str) -> None:
    """The header: the title on the left, the status in gold on the right (the
    status keeps its room; the title is cut to what is left)."""
    title_font, status_font = _font(20), _font(21, True)
    status = _fit(status, status_font, TABLE_W - 2 * MARGIN - 150)
    status_w = _length(status_font, status)
    _text(img, (MARGIN + 4, MARGIN + HEADER // 2 - 4),
          _fit(title, title_font, TABLE_W - 2 * MARGIN - status_w - 24), title_font, SOFT, "lm")
    _text(img, (TABLE_W - MARGIN - 4, MARGIN + HEADER // 2 - 4), status, status_font, GOLD,
          "rm")


def _centre_groups(stock: int | None, middle_label: str, middle: tuple[Card, ...],
                   discard: tuple[Card | None, int] | None,
                   ) -> list[tuple[str, list[Card | None]]]:
    """The centre's piles, left to right, each a label and its cards face up
    (``None``: a card back): the stock, the widow or middle, the discard pile."""
    groups: list[tuple[str, list[Card | None]]] = []
    if stock is not None:
        groups.append((_("stock {count}").format(count=stock), [None] if stock else []))
    if middle_label:
        groups.append((middle_label, list(middle)))
    if discard is not None:
        top_card, count = discard
        groups.append((_("discard ({count})").format(count=count),
                       [top_card] if top_card is not None else []))
    return groups


def _writer(img: Image.Image, words: list[Words] | None,
            ) -> Callable[[tuple[float, float], str, ImageFont.FreeTypeFont,
                           tuple[int, int, int], str], None]:
    """A ``write(point, text, font, fill, anchor)`` that draws the text on ``img``
    (``_text``), or, given ``words``, adds its arguments to them to be pasted as
    tiles later."""
    def write(point: tuple[float, float], text: str, font: ImageFont.FreeTypeFont,
              fill: tuple[int, int, int], anchor: str) -> None:
        if words is None:
            _text(img, point, text, font, fill, anchor)
        else:
            words.append((point, text, font, fill, anchor))
    return write


def _draw_centre(img: Image.Image, draw: ImageDraw.ImageDraw, frame: _Frame, pool: str,
                 stock: int | None, middle_label: str, middle: tuple[Card, ...],
                 discard: tuple[Card | None, int] | None, note: str, *,
                 origin: tuple[int, int] = (0, 0), only: str | None = None,
                 words: list[Words] | None = None, layers: list[Layer] | None = None) -> None:
    """The centre of the table (fields as ``TableScene``'s): the pool, then the
    piles in one row (an empty pile as an outline), then the note; ``img``'s
    corner is the picture's point ``origin``; ``only``: one band of it
    (``pool``, ``cards``, ``labels``: ``_centre_band``), else all; ``words``:
    the texts are added to it (as ``_text``'s arguments) instead of drawn;
    ``layers``: the cards and shapes likewise (``_paint_layer``)."""
    write = _writer(img, words)
    laid: list[Layer] = [] if layers is None else layers

    cx0 = (MARGIN + PLATE_W + 2 * GAP if frame.sides else MARGIN + 2 * GAP) - origin[0]
    cx1 = TABLE_W - 2 * origin[0] - cx0
    cy0 = frame.top + PLATE_H + GAP - origin[1]
    if only in (None, "pool"):
        pool_font = next(f for f in (_font(23, True), _font(19, True), _font(16, True))
                         if _length(f, pool) <= cx1 - cx0 or f.size == 16)
        write(((cx0 + cx1) // 2, cy0 + 18), _fit(pool, pool_font, cx1 - cx0), pool_font,
              WHITE, "mm")
    groups = _centre_groups(stock, middle_label, middle, discard)
    mh = card_height(MID_CARD)
    label_font = _font(17)
    y = cy0 + 40
    for (label, cards), (x, w) in zip(groups, _pile_places(
            cx0 + cx1, stock is None, middle_label, len(middle), discard is None, current()),
            strict=True):
        if only in (None, "cards"):
            if not cards:
                laid.append(OutlineLayer((x, y, x + MID_CARD, y + mh), 7, SOFT, 2))
            for i, card in enumerate(cards):
                if card is None and stock and stock > 1:  # a pile: one more back
                    laid.append(CardLayer(None, MID_CARD, x + 5, y - 5))
                laid.append(CardLayer(card, MID_CARD, x + i * (MID_CARD + 8), y))
        if only in (None, "labels"):
            write((x + w // 2, y + mh + 14), label, label_font, SOFT, "mm")
    if note and only in (None, "labels"):
        write(((cx0 + cx1) // 2, y + mh + 38), note, label_font, SOFT, "mm")
    if layers is None:
        for layer in laid:
            _paint_layer(img, draw, layer)


@lru_cache(maxsize=64)
def _pile_places(middle_x2: int, no_stock: bool, middle_label: str, middle: int,
                 no_discard: bool, language: str) -> tuple[tuple[int, int], ...]:
    """Where the centre's piles (``_centre_groups``) go, left to right: each
    one's left ``x`` and width, centred on ``middle_x2 / 2``; ``no_stock`` and
    ``no_discard``: that pile is not shown; ``middle``: the middle's cards;
    ``language``: the labels' (a key of the cache). The same for every count
    and card shown (what a move changes)."""
    widths = [MID_CARD] * (not no_stock) \
        + [max(middle, 1) * MID_CARD + max(0, middle - 1) * 8] * bool(middle_label) \
        + [MID_CARD] * (not no_discard)
    label_font = _font(17)
    # 28 pixels between piles, more where two labels wider than their piles would
    # meet (a longer word in another language: "Ablagestapel (1)"); measured with
    # two-digit counts, so that every band of the centre places its piles alike
    widest = _centre_groups(None if no_stock else 88, middle_label, (), None if no_discard
                            else (None, 88))
    over = [max(0.0, (_length(label_font, label) - w) / 2)
            for (label, _c), w in zip(widest, widths, strict=True)]
    gaps = [max(28, math.ceil(a + b + 12))
            for a, b in zip(over, over[1:], strict=False)] + [0] * bool(over)
    x = (middle_x2 - sum(widths) - sum(gaps)) // 2
    places = []
    for w, gap in zip(widths, gaps, strict=True):
        places.append((x, w))
        x += w + gap
    return tuple(places)


def _draw_shown(img: Image.Image, shown: tuple[Card, ...], y: int, *,
                words: list[Words] | None = None, layers: list[Layer] | None = None) -> None:
    """The cards traded face up, in fanned rows below the table from ``y``;
    ``words`` and ``layers``: the title and the cards are added to them
    instead of drawn (as ``_draw_centre``'s)."""
    _writer(img, words)((MARGIN + 4, y + 10),
                        _("Traded face up ({count})").format(count=len(shown)),
                        _font(18, True), SOFT, "lm")
    per_row, step = _shown_layout(len(shown))[:2]
    laid: list[Layer] = [] if layers is None else layers
    for i, card in enumerate(shown):
        r, c = divmod(i, per_row)
        laid.append(CardLayer(card, SHOWN_CARD, MARGIN + c * step,
                              y + 28 + r * (card_height(SHOWN_CARD) // 2 + 6)))
    if layers is None:
        draw = ImageDraw.Draw(img)
        for layer in laid:
            _paint_layer(img, draw, layer)



# ==================================================================== showdown
@dataclass(frozen=True)
class Row:
    """One seat at the showdown: its cards (highest first), ``category``, what
    the deal paid it (``delta``), whether it is outlined in gold (``winner``),
    the word after its category (``mark``: ``wins``, ``best hand``), a few
    words (``notes``) and why the deal paid what it did (``payments``: its
    reasons in players' words, ``payments.Tally.items_text``; empty: not shown)."""

    name: str
    dealer: bool
    cards: tuple[Card, ...]
    category: str
    delta: int
    winner: bool
    mark: str
    notes: str
    payments: str = ""


#: ``Row``'s fields, in order
_ROW_FIELDS = tuple(f.name for f in fields(Row))


@dataclass(frozen=True)
class ShowdownScene:
    """What the showdown picture shows: how play ended, the result, one row per
    seat, and lines about the payments."""

    title: str
    how: str
    result: str
    rows: tuple[Row, ...]
    footer: tuple[str, ...]


def showdown_scene(obs: Observation, names: Sequence[str],
                   title: str | None = None,
                   payments: Sequence[str] | None = None) -> ShowdownScene:
    """The scene of a finished deal's showdown, from its public observation.

    Args:
        obs: ``deal.observation(None)`` of a deal that reached its showdown.
        names: plain display names per seat.
        title: the header (default ``Showdown``).
        payments: per seat, the reasons of what the deal paid it ("pool 6,
            ante −1"), drawn under its row; ``None``: rows without them.

    Raises:
        ValueError: ``obs`` has no showdown (the deal is open or was voided).
    """
    sd = obs.showdown
    if sd is None:
        raise ValueError("this deal has no showdown")
    rows = tuple(_showdown_row(obs, sd, names, s) for s in range(len(sd.hands)))
    if payments is not None:
        rows = tuple(replace(row, payments=_clean(payments[s]) if payments[s] else "")
                     for s, row in enumerate(rows))
    return ShowdownScene(_clean(title) if title is not None else _("Showdown"),
                         _how_text(sd, names), _result_text(obs, sd, names), rows,
                         _showdown_footer(sd, names))


def _how_text(sd: Showdown, names: Sequence[str]) -> str:
    """How play stopped (``status.ending_line``, with plain names)."""
    return ending_line(sd, lambda seat: _name(names, seat))


def _result_text(obs: Observation, sd: Showdown, names: Sequence[str]) -> str:
    """The headline: who has the best hand and what it takes (oldway: the pool;
    jaques: just the best hand), or the pool that carries over."""
    if sd.winner is None:
        return _("Nobody holds anything: the pool of {pool} carries over.").format(pool=obs.pool)
    if obs.rules.lives:
        return _("{name} has the best hand and takes {pool}.").format(name=_name(names, sd.winner),
                                                                     pool=sd.pool_won)
    if obs.chips is not None:
        return _("Best hand: {name}.").format(name=_name(names, sd.winner))
    return _("{name} wins the pool of {pool}.").format(name=_name(names, sd.winner), pool=sd.pool_won)


def _showdown_row(obs: Observation, sd: Showdown, names: Sequence[str], seat: int) -> Row:
    """Seat ``seat``'s row: its cards highest first and their category (``sits
    out`` without cards), what the deal paid it, and its notes."""
    cards = tuple(sorted(sd.hands[seat], reverse=True))
    category = hand_words(describe(cards, obs.rules.ranking)) if cards else _("sits out")
    delta = obs.delta[seat] if seat < len(obs.delta) else 0
    winner = seat == sd.winner
    mark = (_("best hand") if obs.chips is not None else _("wins")) if winner else ""
    row = object.__new__(Row)  # Row(...) without the frozen dataclass's slow __init__ (_seat)
    row.__dict__.update(zip(_ROW_FIELDS, (
        _name(names, seat), seat == obs.dealer, cards, category, delta, winner, mark,
        " · ".join(_row_notes(sd, seat, bool(obs.rules.lives))), ""), strict=True))
    return row


def _row_notes(sd: Showdown, seat: int, oldway: bool) -> list[str]:
    """The few words after a seat's category: its lives or chips after the deal
    first (the events after them may be cut short), then whether it knocked,
    lost a life or paid, bought a horse, took a pot (three-stake) or the sweep."""
    notes = []
    if sd.lives is not None:
        notes.append(plural(sd.lives[seat], "life"))
    if sd.chips is not None:
        notes.append(plural(sd.chips[seat], "chip"))
    if seat == sd.knocker:
        notes.append(_("knocked"))
    if seat in sd.losers:
        notes.append(_("loses a life") if oldway else _("pays"))
    if seat == sd.horse:
        notes.append(_("bought a horse"))
    for pot, takers in zip(POT_NAMES, sd.pot_winners if len(sd.pot_winners) > 1 else (),
                           strict=False):
        if seat in takers:
            notes.append(_("takes {pot}").format(pot=_(pot)) + (_(" (shared)") if len(takers) > 1 else ""))
    if seat in sd.game_winners:
        notes.append(_("takes the sweep") if oldway else _("takes the pot"))
    return notes


def _showdown_footer(sd: Showdown, names: Sequence[str]) -> tuple[str, ...]:
    """Lines under the rows: the losing dealer's payment, and the three pots as
    they stand after the deal (three-stake)."""
    footer = []
    penalties = [m for m in sd.payments if m.reason == "penalty"]
    if len(penalties) > 1:
        footer.append(_("The dealer lost and pays 1 to each of the {count} others.").format(
            count=len(penalties)))
    elif penalties and penalties[0].payee is not None:
        footer.append(_("The dealer lost and pays 1 to {name}.").format(
            name=_name(names, penalties[0].payee)))
    if len(sd.pots) > 1:
        footer.append(_("Pots now: ") + " · ".join(
            f"{_(name)} {v}" for name, v in zip(POT_NAMES, sd.pots, strict=False)))
    return tuple(footer)


def showdown_png(obs: Observation, names: Sequence[str], *, title: str | None = None,
                 payments: Sequence[str] | None = None) -> bytes:
    """PNG of a finished deal's showdown: how it ended and who won, then every
    hand (its cards and category, the winner outlined in gold) with what the deal
    paid each seat and why (``payments``; lives or chips after it where the
    preset has them). One column of rows up to six seats (about 590 pixels
    wide), two columns beyond (1150).

    Built from the public observation only (arguments as ``showdown_scene``).

    Raises:
        ValueError: ``obs`` has no showdown.
    """
    return draw_showdown(showdown_scene(obs, names, title, payments))


def showdown_alt(obs: Observation, names: Sequence[str], *, title: str | None = None,
                 payments: Sequence[str] | None = None) -> str:
    """The showdown picture's description (arguments as ``showdown_png``), from the
    same public scene: how play ended, the result, then each seat's shown hand,
    category, what the deal paid it and why, e.g. ``"Showdown · deal 2. Cat
    knocked. Ann wins the pool of 3. Ann: A♤ K♤ Q♤ — sequence to A, wins, +4
    (pool 3, penalty 1); ..."``.

    Raises:
        ValueError: ``obs`` has no showdown.
    """
    return showdown_scene_alt(showdown_scene(obs, names, title, payments))


def showdown_scene_alt(scene: ShowdownScene) -> str:
    """``showdown_alt`` of the scene it is drawn from (``showdown_scene``): a
    picture and its description made from one scene (``bot.ui.media``)."""
    rows = []
    for row in scene.rows:
        name = _("{name} (dealer)").format(name=row.name) if row.dealer else row.name
        words = [row.category, *([row.mark] if row.mark else []),
                 _signed(row.delta), *([row.notes] if row.notes else [])]
        text = (f"{name}: {hand_label(row.cards)} — " if row.cards else f"{name}: ") + ", ".join(words)
        rows.append(text + (f" ({row.payments})" if row.payments else ""))
    return _alt([f"{scene.title}.", scene.how, scene.result, "; ".join(rows) + ".",
                 *scene.footer])


ROW_CARD = SHOWN_CARD  # one small card size: fewer sprites to keep
ROW_H = card_height(ROW_CARD) + 14
#: the height a row grows by to show its payments under the cards
PAY_H = 26
COLUMN_W = 556


@lru_cache(maxsize=8)
def _row_plate(winner: bool, row_h: int) -> Image.Image:
    """A showdown row's plate on the felt, 3 pixels of felt round it (the
    winner's gold outline fills them): drawn once, pasted on every row."""
    img = Image.new("RGB", (COLUMN_W + 7, row_h + 7), FELT)
    draw = ImageDraw.Draw(img)
    if winner:
        _draw_plate(draw, (0, 0, COLUMN_W + 6, row_h + 6), fill=GOLD, outline=GOLD, radius=14)
    _draw_plate(draw, (3, 3, COLUMN_W + 3, row_h + 3), fill=PLATE_ACTING if winner else PLATE,
                outline=GOLD if winner else PLATE_EDGE)
    return img


@lru_cache(maxsize=32)
def draw_showdown(scene: ShowdownScene) -> bytes:
    """PNG of a showdown scene (cached by scene). The header, each row (on its
    plate) and the footer are drawn apart, each mapped to the palette alone and
    pasted on plain felt already mapped and framed (``_framed``): the felt
    between them is never mapped again, nor the picture copied before encoding."""
    n = len(scene.rows)
    columns = 1 if n <= 6 else 2
    per_column = -(-n // columns)
    head = 86
    row_h = ROW_H + (PAY_H if any(row.payments for row in scene.rows) else 0)
    width = columns * COLUMN_W + (columns - 1) * GAP + 2 * MARGIN
    rows_end = head + per_column * (row_h + 8)
    height = rows_end + len(scene.footer) * 28 + MARGIN + 4
    img, rows = _canvas(_framed_felt((width, height)))
    title = _fit(scene.title, _font(24, True), width // 2)
    _put_felt_words(img, (1, 0), (width, head - 3), (  # the rows' plates start below
        ((MARGIN + 4, MARGIN + 14), title, _font(24, True), GOLD, "lm"),
        ((MARGIN + 4 + _length(_font(24, True), title) + 14, MARGIN + 15),
         _fit(scene.how, _font(20), width // 2), _font(20), SOFT, "lm"),
        ((MARGIN + 4, MARGIN + 48), _fit(scene.result, _font(22, True), width - 2 * MARGIN),
         _font(22, True), WHITE, "lm")))
    for i, row in enumerate(scene.rows):
        col, r = divmod(i, per_column)
        x = MARGIN + col * (COLUMN_W + GAP)
        y = head + r * (row_h + 8)
        _put_showdown_row(img, row, row_h, (x - 3 + 1, y - 3))
    if scene.footer:
        _put_felt_words(img, (1, rows_end - 4), (width, height - rows_end + 4), tuple(
            ((MARGIN + 4, 14 + 28 * i), _fit(line, _font(19), width - 2 * MARGIN), _font(19),
             WHITE, "lm") for i, line in enumerate(scene.footer)))  # below the last plate
    return _encode_rows(rows, img.size)


def _put_felt_words(img: Image.Image, xy: tuple[int, int], size: tuple[int, int],
                    texts: tuple[Words, ...]) -> None:
    """``texts`` drawn with ``_text`` on plain felt of ``size``, mapped to the
    palette, pasted on ``img`` at ``xy``, where ``img`` is plain felt (mapped)
    already: the text tiles alone (``_word_tiles``) where each lies wholly on
    the felt and no two meet, else the felt with the texts drawn and mapped."""
    tiles = _word_tiles(("felt", size), lambda: Image.new("RGB", size, FELT), texts,
                        [(0, 0, *size)], clip=True)
    if tiles is None:
        canvas = Image.new("RGB", size, FELT)
        for point, text, font, fill, anchor in texts:
            _text(canvas, point, text, font, fill, anchor)
        _put(img, _part_of(canvas), xy)
        return
    for tile, (tx, ty) in tiles:  # cut at the part's edge, as pasted on a part
        left, top = max(tx, 0), max(ty, 0)
        width, height = tile.size
        right, bottom = min(tx + width, size[0]), min(ty + height, size[1])
        if (left, top, right, bottom) != (tx, ty, tx + width, ty + height):
            tile = tile.crop((left - tx, top - ty, right - tx, bottom - ty))
        _put(img, tile, (xy[0] + left, xy[1] + top))


@lru_cache(maxsize=4)
def _framed_felt(size: tuple[int, int]) -> Image.Image:
    """Plain felt of ``size``, mapped to the palette and framed (``_framed``)."""
    return _framed(_felt(size))


#: where a showdown row's words start, from its plate's left edge
ROW_TEXT_X = 10 + 3 * (ROW_CARD + 6) + 6


def _put_showdown_row(img: Image.Image, row: Row, row_h: int, xy: tuple[int, int]) -> None:
    """One showdown row on its plate (``_row_plate``, 3 pixels of felt round it)
    pasted on ``img`` with its corner at ``xy``, mapped to the palette: its
    cards, the dealer's D, name, category, notes, what the deal paid it and
    why. The plate is mapped once (``_row_plate_part``) and pasted, up to three
    cards are pasted as tiles already on it (``_card_on_plate``), and the words
    (right of the cards, and the payments' line below them) as text tiles on
    its plain fill (``_word_tiles``); where a word does not lie so, or 4 cards
    overlap, the row is put together apart (``_showdown_row_part``) and pasted."""
    x0, y0 = xy
    tiles = None if len(row.cards) > 3 else _row_word_tiles(row, row_h)
    if tiles is None:
        _put(img, _showdown_row_part(row, row_h), xy)
        return
    pieces: list[tuple[Tile, tuple[int, int]]] = [(_row_plate_part(row.winner, row_h), (0, 0))]
    pieces += [(_card_on_plate(card, row.winner), (3 + 10 + i * (ROW_CARD + 6), 3 + 8))
               for i, card in enumerate(row.cards)]
    _put_tiles(img, pieces + tiles, x0, y0)


def _row_word_boxes(row: Row, row_h: int) -> list[tuple[int, int, int, int]]:
    """Where a showdown row's words lie on its plate's picture (up to three
    cards): right of the cards' shadows to the plate's right edge, and (the
    payments' line) below them, across the whole row: that line starts under
    the cards and runs on past them."""
    left = 3 + 10 + 3 * (ROW_CARD + 6) - 6 + _shadow_offset(ROW_CARD) + 1
    below = 3 + 8 + card_height(ROW_CARD) + _shadow_offset(ROW_CARD)
    if not row.payments:
        return [(left, 0, COLUMN_W + 7, row_h + 7)]
    return [(left, 0, COLUMN_W + 7, below), (0, below, COLUMN_W + 7, row_h + 7)]


def _row_word_tiles(row: Row, row_h: int) -> list[tuple[Tile, tuple[int, int]]] | None:
    """A showdown row's words (and the dealer's disc, ``_row_disc``) as tiles on
    its plate's plain fill and where they go on the plate's picture, each in
    one of ``_row_word_boxes``, none meeting another; ``None`` where they cannot be."""
    boxes = _row_word_boxes(row, row_h)
    texts: list[Words] = []
    discs: list[tuple[int, int]] = []
    _draw_showdown_row(_nowhere()[0], row, (0, 0), with_cards=False, words=texts, discs=discs)
    key, ground = ("row", row.winner, row_h), partial(_row_plate, row.winner, row_h)
    tiles = _word_tiles(key, ground, texts, boxes)
    for dx, dy in discs if tiles is not None else ():
        assert tiles is not None
        d = _row_disc_box()
        disc = (dx + d[0], dy + d[1], dx + d[2], dy + d[3])
        colour = _plain(key, ground, disc) if any(
            b[0] <= disc[0] and b[1] <= disc[1] and disc[2] <= b[2] and disc[3] <= b[3]
            for b in boxes) else None
        if colour is None or any(_meets(disc, (x, y, x + t.size[0], y + t.size[1]))
                                 for t, (x, y) in tiles):
            return None
        tiles.append((_row_disc(colour), disc[:2]))
    return tiles


def _showdown_row_part(row: Row, row_h: int) -> Image.Image:
    """One showdown row on its plate (``_row_plate``, 3 pixels of felt round it),
    mapped to the palette, as ``_put_showdown_row`` pastes it: the plate and
    its cards (4 cards overlap: drawn whole), the words as tiles
    (``_row_word_tiles``) or, where they cannot be, drawn and mapped."""
    if len(row.cards) > 3:
        img = _row_plate(row.winner, row_h).copy()
        _draw_showdown_row(img, row, (0, 0), with_cards=True)
        return _part_of(img)
    part = _row_plate_part(row.winner, row_h).copy()
    cx = 3 + 10
    for card in row.cards:
        _put(part, _card_on_plate(card, row.winner), (cx, 3 + 8))
        cx += ROW_CARD + 6
    tiles = _row_word_tiles(row, row_h)
    if tiles is not None:
        _put_tiles(part, tiles)
        return part
    for box in _row_word_boxes(row, row_h):  # a text reaching both is drawn in each
        words = _row_plate(row.winner, row_h).crop(box)
        _draw_showdown_row(words, row, box[:2], with_cards=False)
        _put(part, _part_of(words), box[:2])
    return part


def _draw_showdown_row(img: Image.Image, row: Row, origin: tuple[int, int], *,
                       with_cards: bool, words: list[Words] | None = None,
                       discs: list[tuple[int, int]] | None = None) -> None:
    """Draw a showdown row on ``img``, the piece of its plate's picture whose
    corner is at ``origin`` there (the plate's corner is at (3, 3)); ``words``:
    the texts are added to it (as ``_text``'s arguments) instead of drawn (the
    dealer's disc is drawn all the same, unless ``discs`` is given: where it
    goes, ``_row_disc``'s corner, is added to it)."""
    write = _writer(img, words)

    x, y = 3 - origin[0], 3 - origin[1]
    name_font, cat_font, note_font, delta_font = _font(21, True), _font(20), _font(16), \
        _font(28, True)
    top = y + (0 if row.notes else 12)  # name and category centred without notes
    if with_cards:
        cx = x + 10
        step = ROW_CARD + 6 if len(row.cards) <= 3 else ROW_CARD * 3 // 4
        for card in row.cards:
            _paste_card(img, card, cx, y + 8, ROW_CARD)
            cx += step
    tx = x + ROW_TEXT_X
    delta = _signed(row.delta)
    delta_w = _length(delta_font, delta)
    room = x + COLUMN_W - 16 - delta_w - 12 - tx
    if row.dealer:
        r_ = 11
        if discs is not None:
            discs.append((tx, top))
        else:
            _draw_row_disc(img, ImageDraw.Draw(img), write, tx, top)
        name_x = tx + 2 * r_ + 8
    else:
        name_x = tx
    write((name_x, top + 18), _fit(row.name, name_font, room - (name_x - tx)), name_font,
          WHITE, "lm")
    category = row.category + (f"  — {row.mark}" if row.mark else "")
    write((tx, top + 45), _fit(category, cat_font, room), cat_font,
          GOLD if row.mark else SOFT, "lm")
    if row.notes:
        write((tx, y + 69), _fit(row.notes, note_font, room), note_font, SOFT, "lm")
    write((x + COLUMN_W - 16, y + ROW_H // 2), delta, delta_font, _tone(row.delta), "rm")
    if row.payments:
        write((x + 10, y + ROW_H + PAY_H // 2 - 6),
              _fit(row.payments, note_font, COLUMN_W - 26), note_font, WHITE, "lm")


def _draw_row_disc(img: Image.Image, draw: ImageDraw.ImageDraw,
                   write: Callable[[tuple[float, float], str, ImageFont.FreeTypeFont,
                                    tuple[int, int, int], str], None], x: int, y: int) -> None:
    """The dealer's disc of a showdown row, its words starting at ``x`` and
    its top at ``y``: a white disc and its D (``write``: ``_writer``'s)."""
    r_ = 11
    draw.ellipse((x, y + 18 - r_, x + 2 * r_, y + 18 + r_), fill=WHITE, outline=EDGE, width=2)
    write((x + r_, y + 19), "D", _font(14, True), EDGE, "mm")


@lru_cache(maxsize=1)
def _row_disc_box() -> tuple[int, int, int, int]:
    """The pixels ``_draw_row_disc`` at ``(0, 0)`` may touch (right and bottom
    excluded): its disc and its D's mask."""
    mask, ox, oy = _mask_of("D", _font(14, True), "mm", 0.0, 0.0)
    left, top = 11 - ox, 19 - oy
    return min(0, left), min(7, top), max(23, left + mask.width), max(30, top + mask.height)


@lru_cache(maxsize=4)
def _row_disc(ground: tuple[int, int, int]) -> Image.Image:
    """``_draw_row_disc`` on plain ``ground`` the size of ``_row_disc_box``,
    mapped to the palette: pasted at the box's corner, the pixels of drawing
    it on that ground."""
    left, top, right, bottom = _row_disc_box()
    img = Image.new("RGB", (right - left, bottom - top), ground)
    _draw_row_disc(img, ImageDraw.Draw(img), _writer(img, None), -left, -top)
    return _part_of(img)


@lru_cache(maxsize=8)
def _row_plate_part(winner: bool, row_h: int) -> Image.Image:
    """``_row_plate`` mapped to the palette."""
    return _part_of(_row_plate(winner, row_h))


@lru_cache(maxsize=2 * 52)  # every card, on a winner's plate and on another's
def _card_on_plate(card: Card, winner: bool) -> Image.Image:
    """``card`` (showdown size) with its shadow on a row's plate, mapped to the
    palette: pasted there, the pixels of ``_paste_card`` on the plate."""
    sprite = _card_sprite(card, ROW_CARD)
    tile = Image.new("RGB", sprite.size, PLATE_ACTING if winner else PLATE)
    _put(tile, sprite, (0, 0), sprite)
    return _part_of(tile)


def warm() -> None:
    """Draw every card sprite the pictures use — the 52 faces and the back, at
    the hand, table and showdown sizes — and the palette, so that no player's
    move pays for the first drawing of a card (a hand-sized card takes several
    milliseconds; all of them together take about a second, once per process),
    the hand's cards on felt, the showdown's cards on their rows' plates, and
    read DejaVu's character maps (``fonts.warm``)."""
    fonts.warm()
    _palette()
    for width in (HAND_CARD, MID_CARD, SHOWN_CARD):
        for card in (None, *DECK):
            _card_sprite(card, width)
    for card in (None, *DECK):
        _card_on_felt(card, HAND_CARD)
    for winner in (False, True):
        for card in DECK:
            _card_on_plate(card, winner)


def clear_cache(*, parts: bool = True, sprites: bool = False) -> None:
    """Forget the cached pictures and, with ``parts`` (the default), the parts
    of table pictures (plates, header, centre); with ``sprites`` also the card
    sprites, text masks, table grounds and fonts (their character maps too):
    for benchmarks and tests."""
    _hand_png.cache_clear()
    _hand_alt.cache_clear()
    draw_table.cache_clear()
    draw_showdown.cache_clear()
    if parts:
        _LAST_FRAMES.clear()
        _SEATS.clear()
        _seat_lines.cache_clear()
        _shown_names.cache_clear()
        _seat_part.cache_clear()
        _seat_mask.cache_clear()
        _text_tile.cache_clear()
        _title_part.cache_clear()
        _status_part.cache_clear()
        _centre_band.cache_clear()
        _shown_part.cache_clear()
    if sprites:
        _layers_tile.cache_clear()
        _seat_boxes.cache_clear()
        _mask_box.cache_clear()
        _ink_lut.cache_clear()
        _row_disc.cache_clear()
        _row_disc_box.cache_clear()
        _PLANS.clear()
        _plate_mapped.cache_clear()
        _heart_on.cache_clear()
        _disc_tile.cache_clear()
        _pill_tile.cache_clear()
        _card_sprite.cache_clear()
        _text_mask.cache_clear()
        _fit.cache_clear()
        _clean.cache_clear()
        _table_ground.cache_clear()
        _plate_ground.cache_clear()
        _PLAIN_UNDER.clear()
        _ink_indices.cache_clear()
        _header_texts.cache_clear()
        _name_line.cache_clear()
        _pile_places.cache_clear()
        _pill.cache_clear()
        _dealer_disc.cache_clear()
        _row_plate.cache_clear()
        _felt.cache_clear()
        _framed_felt.cache_clear()
        _hand_felt.cache_clear()
        _ROWS.clear()
        _row_plate_part.cache_clear()
        _card_on_plate.cache_clear()
        _card_on_felt.cache_clear()
        _hand_strip.cache_clear()
        _index.cache_clear()
        _pip.cache_clear()
        _runs_mask.cache_clear()
        _baseline.cache_clear()
        fonts.clear_cache()
        _advance.cache_clear()
        _run_length.cache_clear()
        _length.cache_clear()
        _drawable.cache_clear()
        _palette.cache_clear()
        _palette_bytes.cache_clear()

"""The pictures' fonts: DejaVu Sans first, Noto fonts for what it cannot draw.

Players' names come in any script. DejaVu Sans, the pictures' own font, draws
Latin, Greek, Cyrillic, Hebrew, Arabic and a few emoji; the fonts after it in
``FAMILIES`` draw the rest of the common scripts: Arabic and Hebrew letters
DejaVu lacks, Devanagari, Thai, emoji (monochrome) and Chinese, Japanese and
Korean. All of them are shipped in ``assets/`` with their licences
(``LICENSE-DejaVu.txt``, ``LICENSE-Noto.txt``); the CJK font is a subset
(``scripts/subset_cjk_font.py``).

A text is cut into *runs*, each drawn with one font (``runs``): every cluster of
characters (a letter and its marks, an emoji sequence) takes the first font of
the chain (``chain``) whose character map has all of its characters, so
anything DejaVu has is still drawn by DejaVu, as before these fonts; a stretch
of Arabic, Hebrew, Devanagari or Thai, spaces between its words included, takes
one font for all of it when one has it all (a word of joined Arabic letters is
not split between two fonts). Which font has a character is read from the
fonts' character maps (``cmap``, with fontTools), once per font and only when a
text needs that font; fallback fonts are opened only then, too.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import ImageFont

__all__ = ["ASSETS", "FAMILIES", "Family", "chain", "clear_cache", "clusters", "coverage",
           "drawable", "face", "pick", "runs", "warm"]

ASSETS = Path(__file__).with_name("assets")


@dataclass(frozen=True)
class Family:
    """A font in two weights: its files' names in ``ASSETS``."""

    name: str
    regular: str
    bold: str


#: the fonts in the order a character is looked for: DejaVu first (every picture
#: drawn before the others came looks the same), emoji before CJK (the CJK font
#: has a few symbols that are emoji)
FAMILIES = (
    Family("DejaVu Sans", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    Family("Noto Sans Arabic", "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"),
    Family("Noto Sans Hebrew", "NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf"),
    Family("Noto Sans Devanagari", "NotoSansDevanagari-Regular.ttf",
           "NotoSansDevanagari-Bold.ttf"),
    Family("Noto Sans Thai", "NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf"),
    Family("Noto Emoji", "NotoEmoji-Regular.ttf", "NotoEmoji-Bold.ttf"),
    Family("Noto Sans CJK SC", "NotoSansCJKsc-Regular.subset.otf",
           "NotoSansCJKsc-Bold.subset.otf"),
)


@lru_cache(maxsize=2)
def chain(bold: bool) -> tuple[str, ...]:
    """The font files of one weight in look-up order: each family's, then
    DejaVu's other weight (its few characters the first lacks). Both weights'
    chains have the same characters."""
    own = tuple(f.bold if bold else f.regular for f in FAMILIES)
    return (*own, FAMILIES[0].regular if bold else FAMILIES[0].bold)


@cache
def coverage(file: str) -> frozenset[int]:
    """The code points that font ``file`` (a name in ``ASSETS``) maps to a
    glyph other than ``.notdef``: its best character map, read with fontTools
    once per process (a few milliseconds; some 20 for the CJK font).

    Raises:
        OSError: the file cannot be read.
    """
    font = TTFont(ASSETS / file, lazy=True)
    # glyph names are not needed, and reading them (``post``, ``CFF``) is most of the time
    font.setGlyphOrder([f"g{i}" for i in range(font["maxp"].numGlyphs)])
    best = font.getBestCmap() or {}
    font.close()
    return frozenset(code for code, glyph in best.items() if glyph != "g0")


@lru_cache(maxsize=16384)
def pick(chars: str, bold: bool) -> int | None:
    """The index in ``chain(bold)`` of the first font that has every character
    of ``chars``, or ``None`` when none has them all. A font's map is read only
    when the fonts before it lack one of ``chars``."""
    codes = {ord(c) for c in chars}
    for index, file in enumerate(chain(bold)):
        if codes <= coverage(file):
            return index
    return None


@lru_cache(maxsize=8192)
def drawable(ch: str) -> bool:
    """Some font of either weight has ``ch``."""
    return pick(ch, True) is not None and pick(ch, False) is not None


@lru_cache(maxsize=256)
def face(size: int, bold: bool = False, index: int = 0) -> ImageFont.FreeTypeFont:
    """Font ``index`` of ``chain(bold)`` at ``size`` pixels (0: DejaVu Sans), opened
    when first asked for.

    Raises:
        IndexError: there is no font ``index``.
    """
    return ImageFont.truetype(str(ASSETS / chain(bold)[index]), size)


def _bold(font: ImageFont.FreeTypeFont) -> bool:
    """``font`` is of the bold chain (by its file)."""
    return font.path == str(ASSETS / FAMILIES[0].bold)


# ------------------------------------------------------------------ clusters
#: characters that belong to the character before them (besides marks)
_JOINERS = {0x200C, 0x200D, 0x20E3}


def _extends(code: int) -> bool:
    """The character ``code`` belongs to the cluster before it: a mark, a
    joiner, a variation selector, a skin tone, a tag (flags of regions),
    conjoining Hangul vowels and finals."""
    return (code in _JOINERS or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF
            or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F
            or 0x1160 <= code <= 0x11FF or 0xD7B0 <= code <= 0xD7FF
            or unicodedata.category(chr(code)) in ("Mn", "Mc", "Me"))


def _regional(code: int) -> bool:
    """A regional indicator (two of them are a flag)."""
    return 0x1F1E6 <= code <= 0x1F1FF


@lru_cache(maxsize=4096)
def clusters(text: str) -> tuple[str, ...]:
    """``text`` cut into clusters that are drawn, measured and cut (``_fit``) as
    one: a character and the marks, joiners, variation selectors and skin
    tones after it; after a zero-width joiner the next character too (an emoji
    sequence); two regional indicators (a flag). Joined, they give ``text``."""
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if out and (_extends(code) or out[-1][-1] == "\u200d"
                    or (_regional(code) and len(out[-1]) == 1 and _regional(ord(out[-1])))):
            out[-1] += ch
        else:
            out.append(ch)
    return tuple(out)


#: scripts drawn from one font over a whole stretch when one font has it all,
#: by their blocks (first, last code point)
_SHAPED = {
    "arabic": ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF),
               (0xFE70, 0xFEFF)),
    "hebrew": ((0x0590, 0x05FF), (0xFB1D, 0xFB4F)),
    "devanagari": ((0x0900, 0x097F), (0xA8E0, 0xA8FF)),
    "thai": ((0x0E00, 0x0E7F),),
}


def _script(cluster: str) -> str | None:
    """The shaped script (``_SHAPED``) of ``cluster``'s first character, if any."""
    code = ord(cluster[0])
    for script, blocks in _SHAPED.items():
        if any(first <= code <= last for first, last in blocks):
            return script
    return None


def _stretches(parts: tuple[str, ...]) -> list[list[str]]:
    """``parts`` (clusters) grouped: each stretch of one shaped script, with the
    spaces between its clusters, is a group; every other cluster is one."""
    groups: list[list[str]] = []
    scripts: list[str | None] = []
    for i, part in enumerate(parts):
        script = _script(part)
        if part == " " and scripts and scripts[-1] is not None \
                and i + 1 < len(parts) and _script(parts[i + 1]) == scripts[-1]:
            script = scripts[-1]  # a space inside the stretch
        if script is not None and scripts and scripts[-1] == script:
            groups[-1].append(part)
        else:
            groups.append([part])
            scripts.append(script)
    return groups


def _choose(group: list[str], bold: bool) -> list[tuple[str, int]]:
    """Each piece of ``group`` (clusters) with its font's index: one font for
    the whole group if one has it all, else each cluster's first font, else
    each character's (0 for a character no font has: ``_clean`` removes those
    from names)."""
    whole = pick("".join(group), bold) if len(group) > 1 else None
    if whole is not None:
        return [("".join(group), whole)]
    out: list[tuple[str, int]] = []
    for part in group:
        index = pick(part, bold)
        if index is not None:
            out.append((part, index))
        else:
            out += [(ch, pick(ch, bold) or 0) for ch in part]
    return out


@lru_cache(maxsize=4096)
def runs(text: str, font: ImageFont.FreeTypeFont,
         ) -> tuple[tuple[str, ImageFont.FreeTypeFont], ...]:
    """``text`` as runs to draw one after another, each with its font: ``font``
    (a DejaVu face of ``face``) where DejaVu has the characters, the first
    fallback font of the same weight and size that has them elsewhere. A text
    DejaVu draws alone is the one run ``((text, font),)``. Cached."""
    bold = _bold(font)
    primary = coverage(chain(bold)[0])
    if all(ord(ch) in primary for ch in text):
        return ((text, font),)
    pieces: list[tuple[str, int]] = []
    for group in _stretches(clusters(text)):
        for piece, index in _choose(group, bold):
            if pieces and pieces[-1][1] == index:
                pieces[-1] = (pieces[-1][0] + piece, index)
            else:
                pieces.append((piece, index))
    size = int(font.size)
    return tuple((piece, font if index == 0 else face(size, bold, index))
                 for piece, index in pieces)


def warm() -> None:
    """Read DejaVu's character maps (both weights), which every text needs."""
    coverage(FAMILIES[0].regular)
    coverage(FAMILIES[0].bold)


def clear_cache() -> None:
    """Forget the runs, the fonts' choices, the faces and the character maps
    (benchmarks and tests)."""
    runs.cache_clear()
    clusters.cache_clear()
    pick.cache_clear()
    drawable.cache_clear()
    face.cache_clear()
    coverage.cache_clear()

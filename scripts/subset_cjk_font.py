"""Make the CJK fallback fonts of the pictures (bot/ui/assets/NotoSansCJKsc-*.subset.otf).

The pictures draw names in Chinese, Japanese and Korean with Noto Sans CJK SC.
The whole font is about 20 MB per weight (65,535 glyphs); this script keeps the
characters names use, so the repository stays small:

- the CJK Unified Ideographs block (U+4E00-9FFF, simplified and traditional
  Chinese, Japanese kanji, Korean hanja) and the CJK Compatibility Ideographs,
- Hangul syllables and jamo, hiragana, katakana (and the halfwidth forms), bopomofo,
- CJK punctuation, the fullwidth forms and the enclosed CJK letters.

Hinting is dropped (FreeType draws the outlines well without it, and the file is
a fifth smaller), and only the layout features that the kept characters use on
their own (kerning, mark positioning): no per-language alternates (``locl``).

Its input is a Noto Sans CJK collection, as Debian's package ``fonts-noto-cjk``
installs it (``NotoSansCJK-Regular.ttc``, ``NotoSansCJK-Bold.ttc``; face 2 is
``Noto Sans CJK SC``); fetch the package with ``apt-get download fonts-noto-cjk``
and unpack it with ``dpkg-deb -x``. Needs fontTools (a dependency of the bot).

    .venv/bin/python scripts/subset_cjk_font.py NotoSansCJK-Regular.ttc \
        bot/ui/assets/NotoSansCJKsc-Regular.subset.otf
"""

from __future__ import annotations

import argparse

from fontTools import subset
from fontTools.ttLib import TTCollection

#: (first, last) code points kept, both included
RANGES = [
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x3130, 0x318F),  # Hangul Compatibility Jamo
    (0x31A0, 0x31BF),  # Bopomofo Extended
    (0x31F0, 0x31FF),  # Katakana Phonetic Extensions
    (0x3200, 0x32FF),  # Enclosed CJK Letters and Months
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xAC00, 0xD7A3),  # Hangul Syllables
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
]
#: Noto Sans CJK SC in Debian's collections
FACE = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collection", help="NotoSansCJK-Regular.ttc or NotoSansCJK-Bold.ttc")
    parser.add_argument("out", help="the .otf to write")
    parser.add_argument("--face", type=int, default=FACE, help=f"face in the collection ({FACE})")
    args = parser.parse_args()
    font = TTCollection(args.collection).fonts[args.face]
    options = subset.Options()
    options.hinting = False
    options.layout_features = ["kern", "mark", "mkmk"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # with the licence and its address
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[u for first, last in RANGES for u in range(first, last + 1)])
    subsetter.subset(font)
    font.save(args.out)
    print(f"{args.out}: {len(font.getGlyphOrder())} glyphs, {len(font.getBestCmap())} characters")


if __name__ == "__main__":
    main()

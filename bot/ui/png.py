"""Palette pictures as PNG files, compressed with ISA-L (``isal``).

Pillow's PNG writer compresses with zlib, which takes about 1 ms for one table
picture (800 × 440 palette pixels) whatever the level: most of a picture's cost
after a move (docs/BENCHMARKS.md "Pictures"). ISA-L's deflate writes the same
format about nine times faster at a smaller size. Pillow cannot be given another
compressor, so the few chunks of a palette PNG (signature, ``IHDR``, ``PLTE``,
``IDAT``, ``IEND``; the PNG specification, ISO/IEC 15948) are written here: every
row with filter type 0, the rows compressed as one zlib stream. Any PNG reader
reads the file as Pillow would have written it, pixel for pixel.
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache

from isal import isal_zlib
from PIL import Image

#: ISA-L's levels are 0 to 3; 1 is as small as zlib's 3 here, in a tenth of the time
LEVEL = 1
#: ISA-L's smallest hash table (``memLevel`` 1) finds more matches in our pictures
#: (4% smaller) but takes half as long again: only for a picture that came out large
SMALL_MEMORY = 1
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)) & 0xFFFFFFFF))


def encode(img: Image.Image, colours: int = 256, *, framed: bool = False,
           palette: bytes | None = None, smaller_over: int | None = None) -> bytes:
    """``img``, a palette (``P``) picture with its palette, as PNG bytes: 8 bits a
    pixel, the first ``colours`` entries of its palette (every index it uses must
    be below that).

    Args:
        img: the picture.
        colours: the palette entries written.
        framed: ``img``'s first column is already each row's filter byte (every
            pixel 0) and the picture is the rest: drawn so, a picture is encoded
            without being copied into such a frame first.
        palette: these ``colours`` RGB triples instead of ``img``'s own palette
            (which is then not read).
        smaller_over: when the compressed pixels take more bytes than this,
            they are compressed again with ``SMALL_MEMORY`` and the smaller
            result is kept (``None``: never).

    Raises:
        ValueError: ``img`` is not a palette picture, or has no palette.
    """
    if img.mode != "P":
        raise ValueError(f"a palette picture is needed, not {img.mode}")
    if palette is None:
        own = img.getpalette("RGB")
        if own is None:
            raise ValueError("the picture has no palette")
        palette = bytes(own[:3 * colours])
    width, height = img.size
    if framed:
        width -= 1
    else:
        img, plain = Image.new("P", (width + 1, height), 0), img  # column 0: filter bytes
        img.paste(plain, (1, 0))
    return encode_rows(img.tobytes(), width, height,
                       palette[:3 * colours].ljust(3 * colours, b"\0"), smaller_over=smaller_over)


def encode_rows(rows: bytes | bytearray, width: int, height: int, palette: bytes, *,
                smaller_over: int | None = None) -> bytes:
    """A palette PNG from its rows as they are written (``height`` rows of a
    filter byte 0 then ``width`` palette indices) and its palette (RGB triples,
    one per entry; every index used must be below their number);
    ``smaller_over`` as for ``encode``.

    Raises:
        ValueError: ``rows`` is not ``height`` rows of ``width + 1`` bytes.
    """
    if len(rows) != (width + 1) * height:
        raise ValueError(f"{len(rows)} bytes are not {height} rows of {width + 1}")
    pixels = isal_zlib.compress(rows, LEVEL)
    if smaller_over is not None and len(pixels) > smaller_over:
        packer = isal_zlib.compressobj(LEVEL, isal_zlib.DEFLATED, 15, SMALL_MEMORY)
        pixels = min(pixels, packer.compress(rows) + packer.flush(), key=len)
    # the chunks joined at once: the compressed pixels are copied once
    return b"".join((_opening(width, height, palette), struct.pack(">I", len(pixels)), b"IDAT",
                     pixels, struct.pack(">I", zlib.crc32(pixels, IDAT_CRC) & 0xFFFFFFFF), IEND))


#: the CRC of the ``IDAT`` chunk's type, where its data's CRC starts
IDAT_CRC = zlib.crc32(b"IDAT")
#: the ``IEND`` chunk, always the same
IEND = _chunk(b"IEND", b"")


@lru_cache(maxsize=16)
def _opening(width: int, height: int, palette: bytes) -> bytes:
    """The signature and the ``IHDR`` and ``PLTE`` chunks of a palette PNG
    (``encode_rows``): the same for every picture of a size. Cached."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette colour
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"PLTE", palette)

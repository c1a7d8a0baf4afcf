"""The catalogs' upkeep and checks (``scripts/catalog``, tests/ui/test_i18n.py): the
English catalog filled with its own ids, every ``.po`` compiled to its ``.mo``
(``compiled``: the same bytes every time), and what is wrong with a catalog
(``problems``: an id without a translation, a fuzzy one, a ``{placeholder}`` that
differs from the id's).

``python -m bot.i18n.catalog [dir]`` fills and compiles every catalog under ``dir``.
"""

from __future__ import annotations

import io
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from . import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR


def po_path(lang: str, directory: Path = LOCALE_DIR) -> Path:
    """Where the ``.po`` catalog of ``lang`` is (its ``.mo`` beside it)."""
    return directory / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str, directory: Path = LOCALE_DIR) -> Catalog:
    """The ``.po`` catalog of ``lang``."""
    with po_path(lang, directory).open("rb") as f:
        return read_po(f, locale=lang)


def compiled(catalog: Catalog) -> bytes:
    """``catalog`` compiled to a ``.mo`` (fuzzy entries left out, as gettext does)."""
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def fields(text: str) -> set[str]:
    """The ``str.format`` fields of ``text`` (``{name}``, ``{count}``)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return {"<malformed>"}


def _texts(message: Message) -> tuple[list[str], list[str]]:
    """A message's ids and its translations, as lists."""
    ids = list(message.id) if isinstance(message.id, tuple | list) else [message.id]
    strings = (list(message.string) if isinstance(message.string, tuple | list)
               else [message.string or ""])
    return [str(i) for i in ids], [str(s or "") for s in strings]


def problems(catalog: Catalog) -> list[str]:
    """What is wrong with ``catalog``: every id without a translation (or with a fuzzy
    one), and every translation whose ``{fields}`` differ from its id's."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids, strings = _texts(message)
        where = f"{catalog.locale}: {ids[0]!r}" + (f" ({message.context})" if message.context else "")
        if message.fuzzy or not all(strings):
            found.append(f"{where} has no translation")
            continue
        wanted = set().union(*(fields(i) for i in ids))
        for text in strings:
            if fields(text) != wanted and not (len(ids) > 1 and fields(text) <= wanted):
                found.append(f"{where}: fields {sorted(fields(text))} instead of {sorted(wanted)}")
    return found


def fill_english(catalog: Catalog) -> None:
    """Give every untranslated entry of the English catalog its own id."""
    for message in catalog:
        if message.id and not all(_texts(message)[1]):
            message.string = message.id
            message.flags.discard("fuzzy")


def main(directory: Path = LOCALE_DIR) -> int:
    """Fill the English catalog and compile every language's; prints each catalog's
    problems; returns 1 when there are any."""
    bad = 0
    for lang in LANGUAGES:
        catalog = read(lang, directory)
        if lang == DEFAULT:
            fill_english(catalog)
            with po_path(lang, directory).open("wb") as f:
                write_po(f, catalog, width=0, omit_header=False)
        po_path(lang, directory).with_suffix(".mo").write_bytes(compiled(catalog))
        for problem in problems(catalog):
            print(problem)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else LOCALE_DIR))

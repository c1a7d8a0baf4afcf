"""The catalogs (bot/i18n): every message of the code is in each of the four languages'
catalogs, translated, with the same ``{placeholders}``; the committed ``.mo`` files are
the ``.po`` files compiled; the command tree's localized names follow Discord's rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import regex

from bot import i18n
from bot.i18n import NAME_CONTEXT, catalog

ROOT = Path(__file__).resolve().parents[2]
#: Discord's rule for a command's or option's name (localized ones too)
NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")


def ids(cat) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in cat if m.id}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The messages of the code as ``scripts/catalog`` extracts them (babel.cfg)."""
    out = tmp_path_factory.mktemp("pot") / "commerce.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F",
                    "babel.cfg", "-k", "N_", "-k", "Nn_:1,2", "-k", "ngettext:1,2", "-k", "pgettext:1c,2",
                    "--no-location", "--omit-header", "-o", str(out), "."],
                   cwd=ROOT, check=True)
    from babel.messages.pofile import read_po
    with out.open("rb") as f:
        return read_po(f)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_of_the_code_is_in_the_catalog(extracted, lang):
    missing = ids(extracted) - ids(catalog.read(lang))
    assert sorted(missing, key=str) == [], f"run scripts/catalog and translate: {lang}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    assert catalog.problems(catalog.read(lang)) == []


def test_the_checks_notice_a_missing_translation_and_a_wrong_placeholder():
    from babel.messages.catalog import Catalog
    cat = Catalog(locale="de")
    cat.add("Table {number} is closed.", "Tisch {nummer} ist geschlossen.")
    cat.add("Join", "")
    cat.add(("{count} point", "{count} points"), ("{count} Punkt", "{count} Punkte"))
    assert catalog.problems(cat) == [
        "de: 'Table {number} is closed.': fields ['nummer'] instead of ['number']",
        "de: 'Join' has no translation"]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_committed_mo_files_are_the_po_files_compiled(lang):
    mo = catalog.po_path(lang).with_suffix(".mo")
    assert mo.read_bytes() == catalog.compiled(catalog.read(lang)), "run scripts/catalog"


def test_the_english_catalog_is_the_code_s_own_words():
    assert all(m.string == m.id for m in catalog.read("en") if m.id)


@pytest.mark.parametrize("lang", ["de", "fr", "es"])
def test_localized_command_names_fit_discord_s_rule(lang):
    cat = catalog.read(lang)
    names = [m for m in cat if m.id and m.context == NAME_CONTEXT]
    assert len(names) > 20
    assert [m.string for m in names if not NAME.match(m.string) or m.string.lower() != m.string] == []


def test_languages_map_discord_locales():
    assert i18n.language("de") == "de" and i18n.language("es-419") == "es"
    assert i18n.language("en-GB") == "en" and i18n.language("ja") == "en"
    assert i18n.supported("pt-BR") is None and i18n.supported("fr") == "fr"
    with i18n.use("fr"):
        assert i18n._("Join") == "Rejoindre"
        assert i18n.number(1234.5) == "1\u202f234,5"
    assert i18n._("Join") == "Join"


def test_the_engine_s_words_and_counted_nouns_are_worded_in_each_language():
    from bot.ui.words import choice_words, hand_words, names_list, plural
    assert hand_words("tricon of kings") == "tricon of kings"  # English: the engine's own
    assert plural(2, "point") == "2 points" and names_list(["A", "B", "C"]) == "A, B and C"
    with i18n.use("de"):
        assert hand_words("tricon of kings") == "Drilling Könige"
        assert hand_words("point 21 (3 cards)") == "21 Augen (3 Karten)"
        assert choice_words("give 7♠ · take K♥") == "7♠ geben · K♥ nehmen"
        assert plural(2, "point") == "2 Punkte" and plural(1, "life") == "1 Leben"
    with i18n.use("fr"):
        assert hand_words("pair of aces") == "paire d'as"
        assert hand_words("sequence to Q") == "séquence jusqu'au Q"
        assert plural(0, "chip") == "0 jeton" and plural(2, "chip") == "2 jetons"  # French: 0 is singular
    with i18n.use("es"):
        assert names_list(["A", "B", "C"]) == "A, B y C"
        assert choice_words("K♥, then knock") == "K♥ y luego cerrar"

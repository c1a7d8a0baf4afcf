"""The words of the bot in the member's language: gettext catalogs (``locale/<lang>/
LC_MESSAGES/commerce.po``, compiled to ``.mo`` and read with Babel), one locale per
call through a context variable.

Private answers are worded in the member's own locale (``interaction.locale``; ``use``
sets it for the interaction, ``bot.interactions.guarded``), public messages and
pictures in the server's (``guild_language``: the server's setting, else Discord's
``guild.preferred_locale``). The engine stays untranslated: it gives codes and data,
the UI words them through ``_`` / ``ngettext`` here. English is the message ids
themselves, so the English text is the text of the source. Which game words each
language uses: docs/RULES.md §5.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
from collections.abc import Iterator
from pathlib import Path

from babel import Locale
from babel.numbers import format_decimal
from babel.support import Translations

__all__ = ["DEFAULT", "DOMAIN", "LANGUAGES", "LOCALE_DIR", "NAME_CONTEXT", "N_", "Nn_", "_", "current",
           "enter", "language", "leave", "ngettext", "number", "pgettext", "server", "supported",
           "translations", "use"]

#: the catalogs' gettext domain
DOMAIN = "commerce"
#: where the catalogs are (``<lang>/LC_MESSAGES/commerce.po`` and ``.mo``)
LOCALE_DIR = Path(__file__).parent / "locale"
#: the languages the bot speaks, the first its default (the source's own words)
LANGUAGES = ("en", "de", "fr", "es")
DEFAULT = LANGUAGES[0]
#: the catalog context of a slash command's, group's or option's name (lowercase,
#: no spaces: Discord's rule for names)
NAME_CONTEXT = "command name"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("commerce_language",
                                                               default=DEFAULT)


def supported(locale: object) -> str | None:
    """The bot's language for a Discord locale (``discord.Locale`` or its value:
    ``"de"``, ``"en-GB"``, ``"es-419"``), ``None`` when the bot does not speak it."""
    code = str(getattr(locale, "value", locale) or "").lower()
    base = code.replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else None


def language(locale: object) -> str:
    """``supported(locale)``, English for a language the bot does not speak."""
    return supported(locale) or DEFAULT


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (one of ``LANGUAGES``; English and an unknown
    language: the message ids as they are)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return gettext.NullTranslations()
    return Translations.load(str(LOCALE_DIR), [lang], DOMAIN)


def current() -> str:
    """The language of the words made now (one of ``LANGUAGES``)."""
    return _current.get()


@contextlib.contextmanager
def use(locale: object) -> Iterator[str]:
    """Word everything made inside the block in ``locale``'s language (``language``);
    yields that language."""
    token = _current.set(language(locale))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` (an English message id of the catalog) in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular`` / ``plural`` for ``count`` in the current language
    (its own plural rule, from the catalog's header)."""
    return translations(_current.get()).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, as meant in ``context``."""
    return translations(_current.get()).pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog where it is defined (a constant); it is
    translated where it is shown, with ``_``."""
    return message


def number(value: float) -> str:
    """``value`` written as the current language writes numbers (``1,234.5`` /
    ``1.234,5``)."""
    return format_decimal(value, locale=Locale.parse(_current.get()))


def enter(locale: object) -> contextvars.Token[str]:
    """Word what follows in ``locale``'s language until ``leave`` (``use`` for a
    block that cannot be indented); returns the token ``leave`` takes."""
    return _current.set(language(locale))


def leave(token: contextvars.Token[str]) -> None:
    """Go back to the language before ``enter`` gave ``token``."""
    _current.reset(token)


def server(setting: str, preferred_locale: object) -> str:
    """The language of a server's public messages and pictures: its setting
    (``GuildSettings.language``) when it has one, else its Discord locale
    (``guild.preferred_locale``) when the bot speaks it, else English."""
    return supported(setting) or language(preferred_locale)


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural pair for the catalog where it is defined; it is
    chosen and translated where it is shown, with ``ngettext``."""
    return singular, plural

"""The slash commands in the member's language: the ``app_commands.Translator`` that
``CommerceBot.setup_hook`` sets on the command tree. Discord shows each member the
names, descriptions, options and choices in their client's language when the
catalog has them (a name in the ``NAME_CONTEXT`` of the catalog, lowercase, no
spaces); the English words stay the commands' own.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from ..i18n import DEFAULT, NAME_CONTEXT, supported, translations

#: a table option's description: its text, then its range (``Option.description``)
RANGE = re.compile(r"(.+)( \(\d+-\d+\))")
#: where a string of the tree is a name (Discord's rule: lowercase, no spaces)
NAMES = frozenset({app_commands.TranslationContextLocation.command_name,
                   app_commands.TranslationContextLocation.group_name,
                   app_commands.TranslationContextLocation.parameter_name})


def localized(message: str, locale: object, *, name: bool) -> str | None:
    """``message`` of the command tree in ``locale``'s language (``name``: a
    command's, group's or option's name), ``None`` for a language the bot does not
    speak, English, or a message the catalog does not translate."""
    lang = supported(locale)
    if lang is None or lang == DEFAULT:
        return None
    catalog = translations(lang)
    text = catalog.pgettext(NAME_CONTEXT, message) if name else catalog.gettext(message)
    ranged = RANGE.fullmatch(message)
    if text == message and ranged and not name:  # a table option's text and its range
        text = catalog.gettext(ranged[1]) + ranged[2]
    return None if text == message else text


class CommandTranslator(app_commands.Translator):
    """The catalogs' words for the synced command tree (``localized``)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """``string`` in ``locale``, ``None`` where Discord shows the English."""
        return localized(string.message, locale, name=context.location in NAMES)

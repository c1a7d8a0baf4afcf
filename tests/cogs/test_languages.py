"""The bot in four languages (bot/i18n): the synced command tree carries German, French
and Spanish names and descriptions beside its unchanged English; private answers follow
the member's locale, public messages the server's."""

from __future__ import annotations

import regex

#: Discord's rule for a command's or option's name (localized ones too)
NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
LOCALES = ("de", "fr", "es-ES", "es-419")


def synced(env) -> list[dict]:
    return list(env.backend.commands.get(None, {}).values())


def walk(payload: dict):
    yield payload
    for option in payload.get("options", []):
        yield from walk(option)
        for choice in option.get("choices", []) or []:
            yield choice


def test_the_synced_tree_is_localized_within_discord_s_limits(simcord_env):
    seen = 0
    for command in synced(simcord_env):
        for item in walk(command):
            names = item.get("name_localizations") or {}
            texts = item.get("description_localizations") or {}
            is_choice = "value" in item
            for locale in LOCALES:
                if is_choice:  # a choice's name is shown text, up to 100 characters
                    assert 0 < len(names.get(locale, "x")) <= 100
                    continue
                name = names.get(locale, item["name"])
                assert NAME.match(name) and name == name.lower(), (locale, name)
                if "description" in item:
                    assert 0 < len(texts[locale]) <= 100, (locale, item["description"])
                    seen += 1
    assert seen > 60


def test_the_english_tree_is_unchanged_and_german_names_are_german(simcord_env):
    commerce, admin = synced(simcord_env)
    assert commerce["name"] == "commerce"
    assert commerce["description"] == "Play Commerce, the old three-card exchange game"
    assert commerce["name_localizations"]["de"] == "kommerz"
    assert commerce["description_localizations"]["fr"] == (
        "Jouer au Commerce, l'ancien jeu d'échange à trois cartes")
    assert "en-US" not in commerce.get("name_localizations", {})
    new = next(o for o in commerce["options"] if o["name"] == "new")
    assert new["name_localizations"] == {"de": "neu", "fr": "nouvelle", "es-ES": "nueva",
                                         "es-419": "nueva"}
    settings = next(o for o in admin["options"] if o["name"] == "settings")
    where = next(o for o in settings["options"] if o["name"] == "tables_open_in")
    assert where["name_localizations"]["es-ES"] == "abrir_mesas_en"
    assert [c["name"] for c in where["choices"]] == [
        "a new channel under the Commerce category", "a thread in the current channel",
        "the current channel"]
    assert where["choices"][1]["name_localizations"]["de"] == "einem Thread im aktuellen Kanal"

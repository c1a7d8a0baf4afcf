"""The bot in four languages (bot/i18n): the synced command tree carries German, French
and Spanish names and descriptions beside its unchanged English; private answers follow
the member's locale, public messages the server's."""

from __future__ import annotations

import random

import discord
import pytest
import regex
import simcord.interactions as simcord_interactions

from bot import i18n
from tests.cogs.golden import PAUSE, STALL, components, controls, offers_a_move, pick
from tests.cogs.helpers import message_text

#: Discord's rule for a command's or option's name (localized ones too)
NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
LOCALES = ("de", "fr", "es-ES", "es-419")


def synced(env) -> list[dict]:
    return list(env.backend.commands.get(None, {}).values())


def walk(payload: dict):
    yield payload
    for option in payload.get("options", []):
        yield from walk(option)
        yield from option.get("choices", []) or []


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


# ------------------------------------------------------------ a game in each language
#: one preset of every family and kind of game (trade and barter, Hoyle's, the widow,
#: the old way with lives, Jaques' with chips and a discard pile)
FAMILIES = ("foster", "hoyle", "widow", "oldway", "jaques")
#: Discord's locale of each language the bot speaks besides English
DISCORD_LOCALES = {"de": "de", "fr": "fr", "es": "es-ES"}
#: English words that no message of a translated game may show
ENGLISH = ("My hand", "Your hand", "Showdown", "Game over", "Dealer:", "To act", "Waiting for",
           "Trade", "Barter", "Knock", "Your turn", "Commerce table", "Players (", "Fair shuffle",
           "Cut by", "Not cut by", "Record head", "This deal", "Standing", "Hands")


@pytest.fixture
def locales(monkeypatch):
    """Member id -> the Discord locale their client sends (SimCord sends ``en-US``):
    every interaction payload carries the member's, and the guild's own."""
    chosen: dict[int, str] = {}
    made = simcord_interactions.base_payload

    def base_payload(backend, *, user_id, guild_id, **kwargs):
        record, payload = made(backend, user_id=user_id, guild_id=guild_id, **kwargs)
        payload["locale"] = chosen.get(user_id, "en-US")
        if guild_id is not None:
            payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord_interactions, "base_payload", base_payload)
    return chosen


def words(lang: str, message: str, **fields) -> str:
    with i18n.use(lang):
        return i18n._(message).format(**fields)


async def answer(actor, offer, rng: random.Random) -> None:
    """Answer an offer by its controls' ids (its labels are in the server's language)."""
    ids = [cid for cid, _ in controls(offer) if cid.startswith("commerce:answer")]
    accept = next((cid for cid in ids if cid.endswith(":accept")), None)
    other = next((cid for cid in ids if not cid.endswith(":accept")), None)
    if other is not None and (accept is None or rng.random() < 0.3):
        await actor.click(offer, custom_id=other)
        return
    res = await actor.click(offer, custom_id=accept)
    menus = [c for c in components(res) if c.get("type") == 3]
    if menus:
        await actor.select(res.response, [menus[0]["options"][0]["value"]],
                           custom_id=menus[0]["custom_id"])


async def play(env, channel, ann, lang: str, rng: random.Random) -> tuple[list[str], set[str]]:
    """Play the game to its final standings through Ann's clicks; returns the
    texts of Ann's private panels, and the labels of the public controls she saw."""
    over = words(lang, "Game over · table {number}", number=1)
    panels: list[str] = []
    labels: set[str] = set()
    idle = 0.0
    while not any(m.embeds and m.embeds[0].title == over for m in channel.history()):
        found = next((m for m in reversed(channel.history())
                      if (m.content or "").startswith(ann.mention) and offers_a_move(m)), None)
        labels |= {label for _, label in controls(found)} if found is not None else set()
        if found is None:
            await env.advance_time(1)
            idle += 1
            assert idle < STALL, message_text(channel.history()[-1])
            continue
        if any(cid.startswith("commerce:answer") for cid, _ in controls(found)):
            await answer(ann, found, rng)
        else:
            hand = next(cid for cid, _ in controls(found) if cid.endswith(":hand"))
            panel = await ann.click(found, custom_id=hand)
            panels.append(panel.response.content or "")
            await pick(ann, panel, rng)
        idle = 0.0
        await env.advance_time(PAUSE)
    await env.advance_time(10)
    return panels, labels


@pytest.mark.parametrize("lang", sorted(DISCORD_LOCALES))
@pytest.mark.parametrize("preset", FAMILIES)
async def test_a_whole_game_is_played_in_the_language_of_the_server_and_member(
        simcord_env, locales, preset, lang):
    env = simcord_env
    guild = env.create_guild(preferred_locale=DISCORD_LOCALES[lang])
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    locales[ann.id] = DISCORD_LOCALES[lang]
    res = await ann.slash(general, "commerce new", rules=preset)
    channel = guild.channels["commerce-1"]
    assert res.ephemeral and res.response.content == words(
        lang, "Your table is ready in {place}. Invite players to press **Join**.",
        place=f"<#{channel.id}>")
    lobby = channel.history()[0]
    assert lobby.embeds[0].title == words(lang, "Commerce table {number} · {preset}", number=1,
                                          preset=preset)
    labels = {cid.rsplit(":", 1)[-1]: label for cid, label in controls(lobby)}
    assert labels["join"] == words(lang, "Join") and labels["start"] == words(lang, "Start")
    for _ in range(2):
        await ann.click(lobby, custom_id=next(cid for cid, _ in controls(lobby)
                                              if cid.endswith(":ai")))
        await env.advance_time(2)
    started = await ann.click(channel.history()[0], custom_id=next(
        cid for cid, _ in controls(lobby) if cid.endswith(":start")))
    assert not started.response or started.response.content != "The game begins!"
    panels, labels = await play(env, channel, ann, lang, random.Random(len(preset)))
    assert panels and all(p.startswith(words(lang, "**Your hand:** ")) for p in panels)
    public = [message_text(m) for m in channel.history()]
    showdown = words(lang, "Showdown · deal {number}", number=1)
    assert any(showdown in text for text in public)
    assert words(lang, "My hand") in labels
    leaks = sorted({w for text in (*public, *panels, *labels) for w in ENGLISH if w in text})
    assert leaks == []
    assert not env.errors


async def test_private_answers_follow_the_member_and_public_ones_the_server(simcord_env, locales):
    env = simcord_env
    guild = env.create_guild(preferred_locale="de")
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    ben = guild.add_member(env.create_user("ben"))
    locales[ann.id], locales[ben.id] = "fr", "es-419"
    await ann.slash(general, "commerce new")
    channel = guild.channels["commerce-1"]
    lobby = channel.history()[0]
    joined = await ben.click(lobby, custom_id=next(cid for cid, _ in controls(lobby)
                                                   if cid.endswith(":join")))
    assert lobby.embeds[0].title == "Kommerz-Tisch 1 · foster"
    refused = await ben.slash(general, "commerce join")
    assert refused.response.content == words(
        "es", "There is no open table in this channel. Open one with /commerce new.")
    assert refused.response.content.startswith("No hay ninguna mesa abierta")
    assert joined is not None
    panel_text = await ann.slash(channel, "commerce hand")
    assert panel_text.ephemeral


async def test_the_admin_setting_overrides_the_server_s_discord_locale(simcord_env, locales):
    env = simcord_env
    guild = env.create_guild(preferred_locale="de")
    general = guild.create_text_channel("general")
    mod_role = guild.create_role("mod", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mod_role])
    ann = guild.add_member(env.create_user("ann"))
    res = await mod.slash(general, "commerce-admin settings", language="fr")
    assert res.response.content.endswith(" Public messages are in **Français**.")  # mod: en-US
    assert (await env.bot.service.settings(guild.id)).language == "fr"
    res = await ann.slash(general, "commerce new")
    assert res.response.content.startswith("Your table is ready")  # Ann's client: en-US
    lobby = guild.channels["commerce-1"].history()[0]
    assert lobby.embeds[0].title == "Table de Commerce 1 · foster"
    locales[mod.id] = "de"
    res = await mod.slash(general, "commerce-admin settings", language="server")
    assert res.response.content.startswith("Tische öffnen in **einem neuen Kanal**")
    assert "Public messages" not in res.response.content
    await ann.click(lobby, custom_id=next(cid for cid, _ in controls(lobby) if cid.endswith(":ai")))
    assert guild.channels["commerce-1"].history()[0].embeds[0].title == "Kommerz-Tisch 1 · foster"

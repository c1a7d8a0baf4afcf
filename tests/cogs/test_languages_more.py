"""The texts that were English only (issue 23 §1), played through the real bot in a
member's own language (SimCord sends ``en-US``: the ``locales`` fixture patches the
interaction payload): the history's proof and replay, the engine's refusals (a bad
cut, a table option the rules refuse), the coach's hint, ``/commerce about``, the
rating board and the admin's export."""

from __future__ import annotations

import random
import re

from tests.cogs.helpers import answer_text
from tests.cogs.test_coach import hint_buttons
from tests.cogs.test_confirmations import start
from tests.cogs.test_fair_deals import open_with_ai, play_out
from tests.cogs.test_history import choose, field, labels
from tests.cogs.test_languages import locales  # noqa: F401 (a fixture)
from tests.cogs.test_server_export import manager

#: English words none of these answers may show once translated
ENGLISH = re.compile(r"\b(Commitment|Every random choice|Record chain|Hands at the end|Payments|"
                     r"Proof of the shuffle|Attempt|Proven|step|The cards are dealt|gave|got|"
                     r"showdowns|Up since|open now|ratings|season|ledger entr|"
                     r"finished game|Next export|To check without)\b")


async def press_id(env, actor, message, label: str):
    button = labels(env, message)[label]
    res = await actor.click(message, custom_id=button["custom_id"])
    assert res.acknowledged, answer_text(res)
    return res


async def test_history_proof_and_replay_in_german(simcord_env, locales):  # noqa: F811
    env = simcord_env
    guild, general, ann, channel, lobby, table = await open_with_ai(
        env, "foster", {"deals_per_player": 1})
    await ann.slash(channel, "commerce cut", text="wort")
    await ann.click(lobby, label="Start")
    await play_out(env, table, ann, random.Random(2), cut=1.0)
    live = table.live
    game = live.game
    locales[ann.id] = "de"

    res = await ann.slash(general, "commerce history")
    message = res.response
    assert message.embeds[0].title == "Kommerz-Verlauf"
    await choose(env, ann, message, str(live.id))
    checks = field(message.embeds[0], "Faires Mischen (vom Bot geprüft)").splitlines()
    assert [line.split("**")[1] for line in checks[:5]] == [
        "Festlegung", "Jede Zufallswahl", "Abheben", "Vollständig", "Protokollkette"]
    assert checks[0] == "✅ **Festlegung**: der SHA-256 des Startwerts ist die Festlegung"
    assert checks[3].endswith("die Partie endete nach 3 Runden, jeder Versuch aufgeführt")
    assert checks[5].startswith("Zum Prüfen, ohne dem Bot zu vertrauen: **Exportieren**")
    assert not ENGLISH.search("\n".join(checks)), checks

    await choose(env, ann, message, "2")
    shown = message.embeds[0]
    assert shown.title == "Tisch 1 · foster · Runde 2 von 3"
    assert shown.description.startswith("Geber: ")
    assert "Nachspielen zeigt jeden" in shown.description
    assert [f.name for f in shown.fields] == ["Blätter am Ende", "Zahlungen", "Beweis des Mischens"]
    proof = field(shown, "Beweis des Mischens")
    assert proof.startswith("Versuch 1 · abgehoben von ann `") and "Bewiesen:" in proof, proof
    assert set(labels(env, message)) == {"Vorige Runde", "Nächste Runde", "Nachspielen",
                                         "Zurück zur Partie"}

    await press_id(env, ann, message, "Nachspielen")
    steps = len(game.deals[1].operations)
    embed = message.embeds[0]
    assert embed.title == f"Tisch 1 · Runde 2 · Schritt 0 von {steps}"
    assert embed.description.startswith("Die Karten sind gegeben. Geber: ")
    assert [f.name for f in embed.fields][0] == "Blätter"
    await press_id(env, ann, message, "Weiter")
    moved = message.embeds[0].description
    assert "• " not in moved or ": gab " in moved, moved  # what the step changed, in German
    assert not ENGLISH.search(message_text_of(message)), message_text_of(message)
    assert set(labels(env, message)) >= {"Zurück", "Weiter", "Zurück zur Runde"}


def message_text_of(message) -> str:
    embed = message.embeds[0]
    return "\n".join([embed.title or "", embed.description or "",
                      *(f"{f.name}\n{f.value}" for f in embed.fields)])


async def test_refusals_hint_about_ratings_and_export_in_each_language(simcord_env, bots,
                                                                       locales):  # noqa: F811
    env = simcord_env
    table, (ann, ben, cat), watcher = await start(env, bots, "foster", dealer=2)
    for member, locale in ((ann, "de"), (ben, "fr"), (cat, "es-ES")):
        locales[member.id] = locale
    # the engine's refusal of a cut, at the edge, in each member's language
    bad = "😀"
    said = {m: answer_text(await m.slash(table.channel, "commerce cut", text=bad))
            for m in (ann, ben, cat)}
    assert said[ann] == ("Ein Abheben darf nur Buchstaben, Ziffern, Leerzeichen und "
                         "- _ . , ! ? ' # + : / ( ) & % = enthalten.")
    assert said[ben].startswith("Une coupe ne peut contenir que des lettres")
    assert said[cat].startswith("Un corte solo puede contener letras")
    # a table option the rules refuse (RulesError): said in the member's language
    general = table.channel.guild.channels["general"]
    locales[watcher.id] = "fr"
    refused = answer_text(await watcher.slash(general, "commerce new", rules="foster",
                                              pounce=True))
    assert refused == "Option 'pounce' inconnue pour foster.", refused

    # the coach's hint, in German: the move as its button says it, the reason translated
    panel = await ann.click(table.table_message(), label="My hand")  # the server's: English
    [button] = hint_buttons(panel)
    hint = answer_text(await ann.click(panel.response, custom_id=button["custom_id"]))
    first = hint.splitlines()[0]
    assert first.startswith("💡 **Trainer:** "), first
    move, reason = first.removeprefix("💡 **Trainer:** ").split(" — ")
    moves = [c.get("label") for row in panel.response.components for c in row["components"]]
    assert move in moves, (move, moves)  # the move as its button names it, in German
    assert re.fullmatch(r"dein Blatt \(.+\) (gewinnt hier etwa \d+ % der Aufdecken|"
                        r"würde so nur etwa \d+ % der Aufdecken gewinnen)\.", reason), reason

    # /commerce about in French, the rating board in Spanish
    about = (await ben.slash(general, "commerce about")).response.embeds[0]
    names = [f.name for f in about.fields]
    assert names[:4] == ["Version", "En ligne depuis", "Serveurs", "Tables"], names
    tables = next(f.value for f in about.fields if f.name == "Tables")
    assert "ouvertes maintenant" in tables and "table ouverte" in tables, tables
    # (the board is public: in the server's language, set to Spanish)
    await table.bot.service.update_settings(general.guild.id, ann.id, language="es")
    board = (await cat.slash(general, "commerce leaderboard", by="rating")).response
    text = answer_text_or_embed(board)
    assert text.startswith("Puntuaciones de Comercio · foster · temporada 1\n"
                           "Nadie ha jugado aún 5 partidas puntuadas de foster esta temporada."), text
    assert "Ordenado por mu − 3·sigma" in text, text
    assert not ENGLISH.search(text), text

    # the admin's export in German
    mod = manager(env, table.channel.guild, "mod")
    locales[mod.id] = "de"
    exported = answer_text(await mod.slash(general, "commerce-admin export"))
    assert exported.startswith("Die Kommerz-Daten dieses Servers: seine Einstellungen, "), exported
    assert "Nächster Export möglich <t:" in exported and "Kassenbuch" in exported, exported
    assert not ENGLISH.search(exported), exported


def answer_text_or_embed(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "",
                  *(f"{f.name}\n{f.value}" for f in embed.fields),
                  embed.footer.text if embed.footer else ""]
    return "\n".join(p for p in parts if p)

"""The fair shuffle on the public messages (docs/FAIRNESS.md "In the bot"): the
fair-shuffle message with the game's commitment (posted once, never edited),
the lobby's link to it and the cuts made there, who cut each deal on its table
message and, behind its showdown's **Proof** button, with the record's head so
far, and the seed and the final head on the final standings.

The seed is only ever read through ``Game.revealed_seed`` (and a format 1 deal's
through ``Game.reveal``), which give it once the game (the deal) is over.
"""

from __future__ import annotations

import discord

from ..engine import Game
from ..i18n import N_, _, ngettext
from ..service import LiveTable
from . import names
from .words import plural

#: hex digits of a commitment or a head shown where the full value is elsewhere
SHORT = 16


def message_link(live: LiveTable) -> str | None:
    """The address of the table's fair-shuffle message (``None`` until posted)."""
    message = live.row.commitment_message_id
    if message is None:
        return None
    return f"https://discord.com/channels/{live.row.guild_id}/{live.row.channel_id}/{message}"


def commitment_text(live: LiveTable) -> str:
    """The fair-shuffle message: the game's commitment, posted in the table channel
    before anything is dealt and never edited, and what it means."""
    assert live.row.game_commitment is not None
    return "🔒 " + _(
        "**Fair shuffle · table {number}**\n"
        "Commitment: `{commitment}`\n"
        "Before anything is dealt, the bot drew one secret seed for this whole game and "
        "posts its SHA-256 here. The bot never edits this message.\n"
        "Every deck, the first dealer and every reshuffle come from that seed and from the "
        "cuts players type: press **Cut** (on the lobby or a showdown) or use "
        "`/commerce cut` to add your own word to the next deal. A deal nobody cuts is the "
        "bot's shuffle alone, and says so.\n"
        "The seed is shown when the game ends. Then `/commerce export` gives the record, "
        "which `python -m bot.engine verify` checks against this commitment.").format(
            number=live.row.number, commitment=live.row.game_commitment)


#: characters a list of cuts may take on a message; a longer one is summed up
CUTS_SHOWN = 600


def cut_list(live: LiveTable, cuts: list[tuple[int, str]], *, plain: bool = False) -> str:
    """Cuts as ``Ann `banana`, Ben `42``` (``plain``: ``Ann: banana · Ben: 42``, for
    a footer), the cutter by their seat's name; more than ``CUTS_SHOWN`` characters
    of them become a count (the history and the record list them all)."""
    labels = names.seat_labels(live.seats)
    if plain:
        text = " · ".join(f"{labels[seat]}: {cut}" for seat, cut in cuts)
    else:
        text = ", ".join(f"{names.markdown_safe(labels[seat])} `{cut}`" for seat, cut in cuts)
    if len(text) <= CUTS_SHOWN:
        return text
    return _("{players} (their cuts are in /commerce history and the record)").format(
        players=plural(len(cuts), "player"))


def add_lobby_shuffle(embed: discord.Embed, live: LiveTable) -> None:
    """The lobby's field: where the commitment is, and the cuts for deal 1 so far."""
    if live.row.status != "lobby" or live.row.game_commitment is None:
        return
    link = message_link(live)
    where = ("[" + _("the fair-shuffle message") + f"]({link})" if link else
             _("the fair-shuffle message (being posted)"))
    cuts = [(seat, text) for member, text in live.cuts_for(1)
            if (seat := live.seat_of(member)) is not None]
    said = (_("Cuts for deal 1: {cuts}.").format(cuts=cut_list(live, cuts)) if cuts else
            _("No cut for deal 1 yet: press **Cut** and type any word or number to add yours."))
    embed.add_field(name=_("Fair shuffle"), inline=False, value=(
        _("One secret seed covers this game; its commitment `{commitment}…` is in {where}.").format(
            commitment=live.row.game_commitment[:SHORT], where=where) + f"\n{said}")[:1024])


def deal_cuts(live: LiveTable, index: int) -> list[tuple[int, str]] | None:
    """Who cut deal ``index`` (from 0) and with what (``None``: the deal was not
    dealt from the game's seed)."""
    game = live.game
    log = game.shuffle_log if game is not None else None
    if log is None or index >= len(log.attempts) or log.attempts[index] is None:
        return None
    attempt = log.attempts[index]
    assert attempt is not None
    return [(c.seat, c.text) for c in attempt.cuts if not live.seats[c.seat].is_ai]


def burned_before(live: LiveTable, number: int) -> int:
    """How many attempts at deal ``number`` were burned (a failed write)."""
    game = live.game
    log = game.shuffle_log if game is not None else None
    return 0 if log is None else sum(1 for b in log.burned if b.deal == number)


def _last_deal_cuts(live: LiveTable) -> tuple[Game, int, list[tuple[int, str]]] | None:
    """The game, its last deal's index (from 0) and who cut that deal
    (``deal_cuts``); ``None`` before the first deal or when it was not dealt from
    the game's seed."""
    game = live.game
    if game is None or not game.deals:
        return None
    index = len(game.deals) - 1
    cuts = deal_cuts(live, index)
    return None if cuts is None else (game, index, cuts)


def stamp_table_cuts(embed: discord.Embed, live: LiveTable) -> None:
    """Add who cut the current deal (or that nobody did) to the table message's footer."""
    last = _last_deal_cuts(live)
    if last is None:
        return
    index, cuts = last[1:]
    if cuts:
        line = _("Shuffle cut by {cuts}").format(cuts=cut_list(live, cuts, plain=True))
    else:
        line = _(NOT_CUT)
    burned = burned_before(live, index + 1)
    if burned:
        line += " · " + ngettext("{count} earlier attempt burned after a failed write",
                                 "{count} earlier attempts burned after a failed write",
                                 burned).format(count=burned)
    line += " · " + _("/commerce cut adds your word to the next deal")
    text = embed.footer.text if embed.footer and embed.footer.text else ""
    embed.set_footer(text=f"{text}\n{line}" if text else line)


#: how a deal nobody cut is described, on its table message, in its proof and in
#: the history: the same words everywhere (docs/FAIRNESS.md "In the bot")
NOT_CUT = N_("Not cut by anyone: the bot alone shuffled this deal")


def deal_proof(live: LiveTable, number: int) -> str | None:
    """The fair-shuffle proof of deal ``number`` (from 1), as a showdown's **Proof**
    button answers it privately: who cut the deal (or that nobody did), attempts
    burned, the record's head after it, where the game's commitment is, and how
    to cut the next deal while the game goes on; ``None`` when the deal was not
    dealt from the game's seed (or is not played yet)."""
    game = live.game
    if game is None or not 1 <= number <= len(game.deals):
        return None
    cuts = deal_cuts(live, number - 1)
    if cuts is None:
        return None
    lines = ["🔒 " + _("**Fair shuffle · deal {number}**").format(number=number),
             _("Cut by {cuts}.").format(cuts=cut_list(live, cuts)) if cuts else _(NOT_CUT) + "."]
    burned = burned_before(live, number)
    if burned:
        lines.append(ngettext("{count} earlier attempt at this deal was burned after a failed "
                              "write; the record lists them.",
                              "{count} earlier attempts at this deal were burned after a failed "
                              "write; the record lists them.", burned).format(count=burned))
    head = live.chain_heads().get(f"deal {number}")
    if head is not None:
        lines.append(_("Record so far: `{head}`").format(head=head[:SHORT]))
    link = message_link(live)
    where = ("[" + _("the fair-shuffle message") + f"]({link})" if link
             else _("the fair-shuffle message"))
    lines.append((_("The game's commitment is in {where}; the final standings show its seed.")
                  if game.complete else
                  _("The game's commitment is in {where}; the final standings show its seed "
                    "once the game is over.")).format(where=where))
    if not game.complete and number == len(game.deals):
        lines.append(_("Cut the next deal: **Cut** below, or `/commerce cut`."))
    return "\n".join(lines)


def add_final_proof(embed: discord.Embed, live: LiveTable) -> None:
    """The final standings' field: the game's seed, now public, the record's head,
    which deals nobody cut, and how to check it all (the final standings are never
    edited: they anchor the record)."""
    game = live.game
    if game is None or game.shuffle_log is None:
        return
    seed = game.revealed_seed()
    head = live.chain_heads().get("end")
    if seed is None or head is None:
        return
    link = message_link(live)
    uncut = [i + 1 for i in range(len(game.deals)) if deal_cuts(live, i) == []]
    cut = len(game.deals) - len(uncut)
    shown = ", ".join(map(str, uncut[:12])) + ("…" if len(uncut) > 12 else "")
    lines = [_("Seed, now public: `{seed}`").format(seed=seed.hex()),
             _("Its SHA-256 is the commitment in {where}.").format(
                 where="[" + _("the fair-shuffle message") + f"]({link})" if link
                 else _("the fair-shuffle message")),
             _("Record head: `{head}`").format(head=head),
             _("Deals cut by a player: {cut} of {deals}").format(cut=cut, deals=len(game.deals)) +
             (_(" (not cut: {shown}).").format(shown=shown) if uncut else "."),
             _("Check it yourself: `/commerce export table:{number}`, then "
               "`python -m bot.engine verify` with `--commitment` from that message and "
               "`--head` from here.").format(number=live.row.number)]
    embed.add_field(name=_("Fair shuffle"), value="\n".join(lines)[:1024], inline=False)


def end_reveal(live: LiveTable) -> str:
    """The seed a closed table makes public (``""`` if none): the game's, or a
    format 1 voided deal's."""
    game = live.game
    if game is None:
        return ""
    seed = game.revealed_seed()
    if seed is not None:
        return " " + _("The game's seed, now public: `{seed}`.").format(seed=seed.hex())
    if not game.deals or not game.deals[-1].voided:
        return ""
    proof = game.reveal(len(game.deals) - 1)
    if proof is None or proof.seed is None:
        return ""
    return " " + _("Its shuffle's seed, now public: `{seed}`.").format(seed=proof.seed.hex())


def export_hint(embed: discord.Embed, live: LiveTable) -> None:
    """Tell the final standings how to get the game's record and proofs."""
    text = embed.footer.text if embed.footer and embed.footer.text else ""
    line = _("Record and fair-shuffle proof: /commerce export table:{number} · "
             "deals and replays: /commerce history").format(number=live.row.number)
    embed.set_footer(text=f"{text}\n{line}" if text else line)

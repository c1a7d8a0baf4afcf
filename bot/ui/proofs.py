"""The provably fair shuffle on the public messages (docs/FAIRNESS.md "In the
bot"): the commitment of the next deal on the lobby and on the showdown before
it, the current deal's commitment on the table message, and the seed and cut
of a deal once it is over.

A seed is only ever read through ``Game.reveal``, which gives it once the deal
is over (showdown or void) and never before.
"""

from __future__ import annotations

import discord

from ..service import LiveTable
from . import names

#: hex digits of a commitment the table message shows (the full value is on the
#: lobby or the showdown before the deal, and in the export)
SHORT = 16


def cutter(live: LiveTable, index: int) -> str:
    """Who cut deal ``index`` (from 0): the member whose press it was, or the bot."""
    member = live.cut_by[index] if index < len(live.cut_by) else None
    if member is None:
        return "the bot (16 random bytes: no check against the bot itself)"
    seat = live.seat_of(member)
    who = (names.markdown_safe(names.seat_labels(live.seats)[seat]) if seat is not None
           else f"<@{member}>")
    return f"{who} (the id of their press)"


def add_lobby_commitment(embed: discord.Embed, live: LiveTable) -> None:
    """The lobby's field with the first deal's commitment, while Start can be pressed."""
    if live.row.status != "lobby" or live.row.next_commitment is None:
        return
    embed.add_field(
        name="Fair shuffle: deal 1 is committed", inline=False,
        value=f"`{live.row.next_commitment}`\nThe deck will be fixed by this secret and by "
              "the id of the Start press; the secret is shown when the deal is over, and "
              "/commerce export checks it.")


def stamp_table_commitment(embed: discord.Embed, live: LiveTable) -> None:
    """Add the current deal's commitment (short form) to the table message's footer."""
    game = live.game
    if game is None or not game.deals:
        return
    proof = game.reveal(len(game.deals) - 1)
    if proof is None or proof.commitment is None:
        return
    text = embed.footer.text if embed.footer and embed.footer.text else ""
    line = f"Shuffle commitment {proof.commitment[:SHORT]}… (full value in /commerce export)"
    embed.set_footer(text=f"{text}\n{line}" if text else line)


def add_showdown_proof(embed: discord.Embed, live: LiveTable) -> None:
    """The showdown's field: this deal's seed and cut, now public, and the
    commitment of the next deal (made before anyone can press Next deal)."""
    game = live.game
    if game is None or not game.deals:
        return
    index = len(game.deals) - 1
    proof = game.reveal(index)
    lines = []
    if proof is not None and proof.seed is not None:
        cuts = ", ".join(c.hex() for c in proof.cuts or ()) or "none"
        lines.append(f"Seed `{proof.seed.hex()}`\nCut `{cuts}` by {cutter(live, index)}")
    if live.row.next_commitment is not None and not game.complete:
        lines.append(f"**Next deal commitment** `{live.row.next_commitment}`")
    if lines:
        embed.add_field(name="Fair shuffle", value="\n".join(lines), inline=False)


def void_reveal(live: LiveTable) -> str:
    """The seed of a deal voided when the table closed, now public (``""`` if none)."""
    game = live.game
    if game is None or not game.deals or not game.deals[-1].voided:
        return ""
    proof = game.reveal(len(game.deals) - 1)
    if proof is None or proof.seed is None:
        return ""
    return f" Its shuffle's seed, now public: `{proof.seed.hex()}`."


def export_hint(embed: discord.Embed, live: LiveTable) -> None:
    """Tell the final standings how to get the game's record and proofs."""
    text = embed.footer.text if embed.footer and embed.footer.text else ""
    line = (f"Record and fair-shuffle proofs: /commerce export table:{live.row.number} · "
            "deals and replays: /commerce history")
    embed.set_footer(text=f"{text}\n{line}" if text else line)

"""Help and rules text, written for this project (RULES.md §1 is the ruling)."""

from __future__ import annotations

import discord

from .render import GREEN

HOW_TO_PLAY = (
    "Everyone holds three cards and tries to finish a deal with the best hand. "
    "Each deal, every player puts 1 point into the **pool**; the best hand at the "
    "showdown takes it. Balances may go below zero: it is a ledger, nobody is knocked out.\n\n"
    "On your turn pick one:\n"
    "• **Trade** — hand one card and 1 point to the dealer and take the top card of the "
    "hidden stock. The card you gave is put aside for good. The dealer trades for free.\n"
    "• **Barter** — slide one card face down to your neighbour. They pick a card to give "
    "you back *before* they see yours, or refuse by knocking (which ends the deal).\n"
    "• **Knock** — you are happy: the deal ends at once and all hands are shown.\n"
    "The deal also ends when a trade takes the last stock card."
)

HANDS = (
    "1. **Tricon** — three of a rank (three aces best).\n"
    "2. **Sequence** — three running cards of one suit; Q-K-A is best, A-2-3 lowest, "
    "and K-A-2 does not count.\n"
    "3. **Point** — add up your best suit with 2 or 3 cards (ace 11, pictures 10, others "
    "their number). A single card of a suit adds nothing; on equal totals three cards beat two.\n"
    "Pairs and ordinary flushes earn nothing extra. Ties go to the dealer, then to the tied "
    "player sitting soonest after the dealer."
)

PAYMENTS = (
    "The winner takes the pool. A dealer who loses pays 1 point to the winner — or, if the "
    "dealer's hand was of the same kind as the winner's (both points, say), 1 point to every "
    "other player. Trade fees stay with the dealer. The deal then moves one seat on; after "
    "everyone has dealt once, the highest balance wins (ties share the win)."
)

EXAMPLE = (
    "Ann deals to Ben and Cat. Ben holds 6♠ 7♠ K♦: he trades the K♦ (paying Ann 1) and draws "
    "8♠ — a sequence to 8. Cat, with A♥ K♥ 4♦ (point 21), knocks. Ann shows 3♣ 4♣ 5♣, a lower "
    "sequence. Ben takes the pool of 3, and since Ann lost with the same kind of hand she pays "
    "1 to Ben and 1 to Cat. Deal result: Ann −2, Ben +2, Cat 0."
)


def rules_embeds() -> list[discord.Embed]:
    """The ``/commerce rules`` answer for the ``foster`` preset."""
    embed = discord.Embed(title="Commerce · foster rules", colour=GREEN, description=HOW_TO_PLAY)
    embed.add_field(name="Hands, best first", value=HANDS, inline=False)
    embed.add_field(name="Showdown and payments", value=PAYMENTS, inline=False)
    embed.add_field(name="Example", value=EXAMPLE, inline=False)
    embed.set_footer(text="Start with /commerce new · see your cards with My hand or /commerce hand")
    return [embed]

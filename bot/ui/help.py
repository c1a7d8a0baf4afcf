"""Help and rules text, written for this project (docs/RULES.md §1.4, §2.1)."""

from __future__ import annotations

import discord
from discord import app_commands

from .. import i18n
from ..engine import PRESETS
from ..i18n import N_, _
from .cards import outline_suits
from .render import GREEN

HOW_TO_PLAY = N_(
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

HANDS = N_(
    "1. **Tricon** — three of a rank (three aces best).\n"
    "2. **Sequence** — three running cards of one suit; Q-K-A is best, A-2-3 lowest, "
    "and K-A-2 does not count.\n"
    "3. **Point** — add up your best suit with 2 or 3 cards (ace 11, pictures 10, others "
    "their number). A single card of a suit adds nothing; on equal totals three cards beat two.\n"
    "Pairs and ordinary flushes earn nothing extra. Ties go to the dealer, then to the tied "
    "player sitting soonest after the dealer."
)

PAYMENTS = N_(
    "The winner takes the pool. A dealer who loses pays 1 point to the winner — or, if the "
    "dealer's hand was of the same kind as the winner's (both points, say), 1 point to every "
    "other player. Trade fees stay with the dealer. The deal then moves one seat on; after "
    "everyone has dealt once, the highest balance wins (ties share the win)."
)

EXAMPLE = N_(
    "Ann deals to Ben and Cat. Ben holds 6♠ 7♠ K♦: he trades the K♦ (paying Ann 1) and draws "
    "8♠ — a sequence to 8. Cat, with A♥ K♥ 4♦ (point 21), knocks. Ann shows 3♣ 4♣ 5♣, a lower "
    "sequence. Ben takes the pool of 3, and since Ann lost with the same kind of hand she pays "
    "1 to Ben and 1 to Cat. Deal result: Ann −2, Ben +2, Cat 0."
)


def rules_embeds() -> list[discord.Embed]:
    """The ``/commerce rules`` answer for the ``foster`` preset."""
    embed = discord.Embed(title=_("Commerce · foster rules"), colour=GREEN, description=_(HOW_TO_PLAY))
    embed.add_field(name=_("Hands, best first"), value=_(HANDS), inline=False)
    embed.add_field(name=_("Showdown and payments"), value=_(PAYMENTS), inline=False)
    embed.add_field(name=_("Example"), value=outline_suits(_(EXAMPLE)), inline=False)
    embed.set_footer(text=_("Start with /commerce new · see your cards with My hand or /commerce hand"))
    return [embed]


#: How each preset differs, in our own words, with a short example (docs/RULES.md §2).
PRESET_HELP: dict[str, tuple[str, str]] = {
    "foster": (
        HOW_TO_PLAY,
        EXAMPLE,
    ),
    "hoyle": (
        N_("Hoyle's 'new way'. Trading and bartering work as in foster, with four changes: a "
           "neighbour **must** accept a barter (no refusing by knocking); a traded card goes "
           "**under the stock**, so the stock never runs out; after your trade or barter you may "
           "**knock in the same turn**; and if nobody holds even a point, the pool **stays** for "
           "the next deal (fresh antes are added) — except on the last deal, where the dealer's "
           "priority settles it. Play can run either way round the table."),
        N_("Ben trades his 4♥ and draws 10♠, making K♠ 10♠ 9♠ (point 29 in three cards); happy, "
           "he knocks at the end of the same turn. Nobody can refuse Cat's barter, so Dan must "
           "pick a card for her first."),
    ),
    "parlett": (
        N_("Parlett's 'Trade or Barter'. Play runs to the **right** (anticlockwise) by default: "
           "the player on the dealer's right starts, and you barter with the next player in "
           "turn. A traded card is handed over **face up** for all to see. A dealer who loses "
           "pays 1 to **every** other player if they hold any point, sequence or tricon at all, "
           "otherwise 1 to the winner."),
        N_("The dealer holds Q♦ 5♦ 2♣ (point 15) and loses to a tricon of 7s: because the dealer "
           "held a point, they pay 1 to each other player, not just the winner."),
    ),
    "foster-more": (
        N_("Foster's game with two more hands: a **flush** (three of a suit that are not a run, "
           "ranked by their point) and a **pair** (ranked by the pair, then the odd card). "
           "Order: tricon, sequence, flush, pair, point, nothing."),
        N_("8♥ 8♠ 2♦ is a pair of 8s: it beats A♣ K♣ 5♦ (point 21) but loses to 9♦ 6♦ 2♦ "
           "(a flush)."),
    ),
    "widow": (
        N_("Three cards lie face up in the middle: the **widow**. The dealer may first swap "
           "their whole hand for it. Then, from the player after the dealer, each turn you "
           "either swap **one** card with the widow or **knock**; a player who knocked takes no "
           "more turns. When two players have knocked, hands are shown and the best takes the "
           "pool. No trade fees and no dealer penalty."),
        N_("The widow shows 9♠ 9♦ 4♣. Ann holds 9♥ K♣ 2♦: she swaps her 2♦ for the 9♠, then "
           "later the K♣ for the 9♦ — a tricon of 9s — and knocks."),
    ),
    "oldway": (
        N_("Hoyle's 'old way'. Everyone stakes 3 at the start and has 3 **lives**. Each deal, "
           "three cards lie face up in the middle; before looking, the dealer may take them "
           "(their own hand goes face up instead). In turn, each player swaps one or more cards "
           "with the middle, or **stands** for good. When all have stood, the best hand takes 1 "
           "from the pool and the worst loses a life. The first player out of lives may **buy a "
           "horse**: one more life for 1 point. The last player with lives sweeps the pool. "
           "Optional **pounce**: holding a tricon, grab the fourth card of that rank from the "
           "middle — four of a kind beats everything."),
        N_("Cat holds 5♣ 5♦ 5♥ and sees 5♠ turned into the middle: with pounce on, she takes "
           "it at once and her four 5s win the deal."),
    ),
    "jaques": (
        N_("A discard-pile game with chips (default 10 each, stake 1). The stock lies face down "
           "beside a face-up discard pile. On your turn: swap a card with the top discard; draw "
           "from the stock and keep it (discarding a card) or throw it away; **pass**; or "
           "**knock** (costs 1 chip): everyone else gets one last turn, then the showdown. If "
           "everyone passes for a whole round, the showdown comes at once. The lowest hand pays "
           "1 chip into the pot, which carries over; a player without chips is out, and the "
           "last one left takes the pot. Options: fixed rounds, direct or open trading, dead "
           "knock, three-stake pot."),
        N_("Ben knocks with J♠ 10♠ 9♠ (a sequence), paying 1 chip. Cat and Dan each take one "
           "more turn; at the showdown Dan's 7♣ 4♦ 2♥ is the lowest hand and pays 1 into the "
           "pot."),
    ),
}


def preset_embed(name: str, summary: str) -> discord.Embed:
    """``/commerce rules preset:`` for a preset other than the full foster rules."""
    how, example = PRESET_HELP.get(name, (summary, ""))
    embed = discord.Embed(title=f"Commerce · {name}", colour=GREEN, description=outline_suits(_(how)))
    if example:
        embed.add_field(name=_("Example"), value=outline_suits(_(example)), inline=False)
    embed.add_field(name=_("Hands"), value=_(HANDS), inline=False)
    embed.set_footer(text=_("Start one with /commerce new rules:{preset}").format(preset=name))
    return embed


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word boundary, with "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:—-")
    return cut + "…"


async def preset_autocomplete(interaction: discord.Interaction, current: str,
                              ) -> list[app_commands.Choice[str]]:
    """Rules presets whose name contains what was typed, each with its one-line
    summary (at most 25, Discord's limit)."""
    out = []
    for name, rules in PRESETS.items():
        if current.lower() in name:
            with i18n.use(interaction.locale):  # the member's own language
                out.append(app_commands.Choice(name=clip(f"{name} — {_(rules.summary)}", 100),
                                               value=name))
    return out[:25]

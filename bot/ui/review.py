"""The coach's review of a finished game as its member reads it (docs/AI.md
"Review"): a private embed of pages — the figures of the game, the trend over
the member's latest reviewed games, then their decisions, each with what the
coach would have done and what the difference cost — and the Review button
under a game's final standings.

Only what the stored review holds is shown: the member's own hand and decisions
and the coach's, never another seat's cards.
"""

from __future__ import annotations

from typing import Any

import discord

from .. import i18n
from ..engine import parse_card
from ..i18n import _
from ..service import Review
from .cards import card_label, hand_label
from .components import ReviewButton, view_of
from .controls import label
from .history import player

#: decisions on one page (an embed's description holds 4,096 characters; a line
#: is under 200)
PER_PAGE = 8
#: the embed's colour
TEAL = discord.Colour.teal()


def pages(review: Review) -> int:
    """How many pages ``review`` has (at least one)."""
    return max(1, -(-len(review.row.lines) // PER_PAGE))


def decision_text(decision: dict[str, Any], players: list[str]) -> str:
    """A stored decision (``bot.service.reviews.decision_dict``) in words: the
    action's name as its button says it, then its cards (``Trade K♡``,
    ``Swap: 7♤ ↔ Q♡``, ``Offer a trade: 9♢ → Ann``)."""
    kind = decision["kind"]
    text = label(kind)
    if "give" in decision:
        give = hand_label(parse_card(c) for c in decision["give"])
        take = hand_label(parse_card(c) for c in decision.get("take", []))
        text += f": {give} ↔ {take}"
    elif "card" in decision:
        text += " " + card_label(parse_card(decision["card"]))
        if "target" in decision and 0 <= decision["target"] < len(players):
            text += f" → {players[decision['target']]}"
    if decision.get("knock"):
        text += " + " + label("knock")
    return text


def percent(share: float) -> str:
    """``share`` (0..1) as a whole percentage, ``"75%"``."""
    return f"{round(share * 100)}%"


def _line(item: dict[str, Any], players: list[str]) -> str:
    where = _("Deal {deal}, move {move}").format(deal=item["deal"], move=item["move"] + 1)
    hand = item.get("hand")
    head = f"**{where}**" + (f" · {hand_label(parse_card(c) for c in hand)}" if hand else "")
    did = decision_text(item["did"], players)
    if item["forced"]:
        return f"{head}\n▫️ {did} — " + _("the only choice")
    if item["did"] == item["coach"]:
        return f"{head}\n✅ {did} — " + _("as the coach would")
    coach = decision_text(item["coach"], players)
    cost = item["cost"]
    costs = (_("about {points} points given up").format(points=i18n.number(round(cost, 1)))
             if cost >= 0.05 else _("no measurable cost"))
    return f"{head}\n❌ {did} · " + _("coach: {advice}").format(advice=coach) + f" — {costs}"


def review_embed(review: Review, page: int) -> discord.Embed:
    """Page ``page`` (0-based, clamped) of ``review``: the game's figures and the
    member's trend, then that page's decisions."""
    row, past = review.row, review.past
    total = pages(review)
    page = min(max(page, 0), total - 1)
    if row.accuracy is None:
        summary = _("You made no decision with a choice in this game: the coach has "
                    "nothing to weigh.")
    else:
        summary = _("Accuracy **{accuracy}**: {agreed} of {decisions} decisions as the coach "
                    "would have made them; about {points} points given up in expectation.").format(
            accuracy=percent(row.accuracy), agreed=row.agreed, decisions=row.decisions,
            points=i18n.number(round(row.cost, 1)))
    players = [player(past, s) for s in range(len(past.players))]  # inert, as history shows them
    lines = [_line(item, players)
             for item in row.lines[page * PER_PAGE:(page + 1) * PER_PAGE]]
    embed = discord.Embed(
        title=_("Your review · table {number} · {preset}").format(number=past.number,
                                                                  preset=past.preset),
        colour=TEAL, description=summary + ("\n\n" + "\n".join(lines) if lines else ""))
    if review.trend:
        figures = " → ".join(percent(a) for _, a in review.trend)
        mean = sum(a for _, a in review.trend) / len(review.trend)
        embed.add_field(name=_("Your last reviewed games"),
                        value=figures + " · " + _("average {average}").format(
                            average=percent(mean)), inline=False)
    footer = _("The coach judges each decision from what you could see then; a cost is "
               "an estimate in expected points.")
    if total > 1:
        footer = _("Page {page} of {pages}").format(page=page + 1, pages=total) + " · " + footer
    embed.set_footer(text=footer)
    return embed


def review_view(guild_id: int, review: Review, page: int) -> discord.ui.View | None:
    """Previous / Next under a review of more than one page."""
    total = pages(review)
    if total <= 1:
        return None
    table = review.past.table_id
    page = min(max(page, 0), total - 1)  # a forged page: the buttons stay in range
    return view_of(ReviewButton(guild_id, table, max(page - 1, 0), "prev", disabled=page <= 0),
                   ReviewButton(guild_id, table, min(page + 1, total - 1), "next",
                                disabled=page >= total - 1))


def final_view(guild_id: int, table_id: int) -> discord.ui.View:
    """The Review button under a game's final standings."""
    return view_of(ReviewButton(guild_id, table_id, 0, "open"))

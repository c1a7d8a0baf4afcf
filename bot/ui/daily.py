"""What a member sees of the daily deal (docs/DAILY.md): their private game (an
ephemeral embed with a button for each decision), the board of a day, and the
day's commitment and seed.

The game is shown only ephemerally to the member who plays it. The renderers of a
table (``render``, ``panel``) are reused on a table made for the purpose
(``daily_table``: the member and the AI seats, never stored), so a daily deal reads
like any other deal. Its buttons (``DailyButton``) carry the guild, the day, the
member's move count and the decision; they act only from an ephemeral message in
their guild, and the handlers (``DailyHandlers``, ``interaction.client.daily_handlers``)
act for whoever clicked, never for someone else.
"""

from __future__ import annotations

import datetime
import io
import json
import re
from typing import Any, Protocol

import discord

from ..engine import AnyDeal, choices, describe, get_preset
from ..engine.daily import LEVEL, PRESET, SEATS
from ..i18n import _
from ..service import LiveTable
from ..service.daily import DailyBoard, DailyProof, DailyState
from ..storage import SeatRow, TableRow
from . import names, panel, render
from .cards import hand_label
from .components import NOT_HERE, NOT_PRIVATE, DynamicButton, Placed, dynamic_view
from .controls import CONTROLS
from .words import hand_words, signed

#: the most buttons a message carries (Discord's limit: 5 rows of 5)
MAX_BUTTONS = 25
#: the latest public moves the game lists
RECENT = 6
GREEN = discord.Colour.from_rgb(46, 125, 50)
#: the board's lines at most
BOARD_LINES = 25


class DailyHandlers(Protocol):
    """What a daily control calls (``bot.interactions.daily.DailyHandlers``)."""

    async def on_daily(self, interaction: discord.Interaction, guild_id: int, day: int,
                       seq: int, action: str, value: str | None) -> None:
        """A decision of the member's daily game (``DailyButton``)."""


def handlers(interaction: discord.Interaction) -> DailyHandlers:
    """The daily handlers of the bot that received ``interaction``."""
    found: DailyHandlers = interaction.client.daily_handlers  # type: ignore[attr-defined]
    return found


class DailyButton(Placed, DynamicButton,
                  template=(r"commerce:daily:(?P<guild>\d+):(?P<day>\d+):(?P<seq>\d+)"
                            r":(?P<action>[a-z_]{1,20})(?::(?P<value>[0-9A-Za-z!@?-]{1,40}))?")):
    """A button of a member's daily game making one decision: its id carries the
    guild, the day's number, the member's moves so far (a later click is stale)
    and the decision as ``bot.engine.choices`` encodes it."""

    def __init__(self, guild_id: int, day: int, seq: int, action: str, value: str | None = None,
                 *, label: str = "?", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        """The button deciding ``action`` (``value``: the select value of a
        decision with a card) in day ``day``'s game after ``seq`` moves."""
        tail = f":{value}" if value is not None else ""
        super().__init__(discord.ui.Button(
            label=label[:80], style=style, row=row,
            custom_id=f"commerce:daily:{guild_id}:{day}:{seq}:{action}{tail}"))
        self.guild_id, self.day, self.seq = guild_id, day, seq
        self.action, self.value = action, value

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> DailyButton:
        """Rebuild the button from its ``custom_id`` (discord.py calls this on a click)."""
        return cls(int(match["guild"]), int(match["day"]), int(match["seq"]), match["action"],
                   match["value"])

    def refusal(self, interaction: discord.Interaction) -> str | None:
        """A click outside the button's guild, or not from an ephemeral message."""
        if interaction.guild_id != self.guild_id:
            return NOT_HERE
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return NOT_PRIVATE
        return None

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the decision to the daily handlers."""
        await handlers(interaction).on_daily(interaction, self.guild_id, self.day, self.seq,
                                             self.action, self.value)


DAILY_ITEMS = (DailyButton,)


def daily_table(state: DailyState, guild_id: int, member_id: int, name: str) -> LiveTable:
    """A table holding the member's daily game, for the table renderers only
    (never stored, never posted): the member at their seat, AI seats at ``LEVEL``."""
    row = TableRow(id=0, guild_id=guild_id, channel_id=0, number=0, host_id=member_id,
                   preset=PRESET, options={}, status="playing", lobby_message_id=None,
                   table_message_id=None, next_deal_delay=0,
                   first_dealer=state.game.game.first_dealer, created_at="", coach=False)
    seat = state.game.seat
    seats = [SeatRow(0, s, member_id if s == seat else None, player,
                     ai_level=None if s == seat else LEVEL)
             for s, player in enumerate(state.game.players(name))]
    return LiveTable(row, seats, get_preset(PRESET), game=state.game.game)


def short(value: str) -> str:
    """A commitment or seed shortened for a line of text (its first 16 digits)."""
    return f"`{value[:16]}…`"


def resumed_note() -> str:
    """The line above a game the member began before (one game a day: this is it)."""
    return _("You began today's deal before: here it is, where you left it.")


def board_hint() -> str:
    """Where to compare results."""
    return _("Compare with everyone who played it: `/commerce daily show:board`.")


def commitment_lines(state: DailyState) -> str:
    """Today's and tomorrow's commitments, and when today's seed is revealed."""
    return _("Commitment (SHA-256 of the day's seed): `{today}`\nTomorrow's: `{tomorrow}`\n"
             "The seed is revealed {when}: `/commerce daily show:proof`.").format(
        today=state.commitment, tomorrow=state.tomorrow, when=render.when(state.ends))


def game_embed(state: DailyState, live: LiveTable, *, note: str = "") -> discord.Embed:
    """The member's daily game as they may see it: the latest public moves, their
    hand and what they may do; once it is over, the showdown and their result."""
    game = state.game
    deal = game.deal
    embed = discord.Embed(title=_("Daily deal · {day}").format(day=game.day.isoformat()),
                          colour=GREEN)
    lines = [_("Everyone on this server plays these cards today, in your seat, against "
               "{count} AI seats at level {level}.").format(count=SEATS - 1, level=LEVEL)]
    if note:
        lines.append(note)
    events = [render.event_text(live, e) for e in deal.events[-RECENT:]] if deal.events else [
        render.event_text(live, None)]
    lines.append("\n".join(events))
    lines.append(render.hand_text(live, deal.observation(state.game.seat)))
    embed.description = "\n\n".join(lines)
    if deal.finished and deal.showdown is not None:
        embed.add_field(name=_("Showdown"), value=(
            f"{render.how_it_ended(live, deal.showdown)}\n"
            f"{render.showdown_result(live, deal)}")[:1024], inline=False)
        render.add_lines(embed, _("Hands"), showdown_hands(live, deal), inline=False)
        render.add_lines(embed, _("This deal"), render.payment_lines(live, deal), inline=False)
    if game.result is not None:
        embed.add_field(name=_("Your result"), value=_(
            "{points} points. Compare it with everyone's: `/commerce daily show:board`.").format(
            points=signed(game.result)), inline=False)
    embed.add_field(name=_("Fair shuffle"), value=commitment_lines(state), inline=False)
    return embed



def showdown_hands(live: LiveTable, deal: AnyDeal) -> list[str]:
    """One line per seat of a finished daily deal: its hand and category (🏆 for
    the winner), or that it sat out (the daily game has no picture to show them)."""
    sd = deal.showdown
    assert sd is not None
    hands = []
    for s, h in enumerate(sd.hands):
        if not h:
            hands.append(_("{name}: sits out").format(name=render.seat_name(live, s)))
            continue
        mark = " 🏆" if s == sd.winner else ""
        dealer = _(" (dealer)") if s == deal.dealer else ""
        hands.append(f"{render.seat_name(live, s)}{dealer}: {hand_label(h)} — "
                     f"{hand_words(describe(h, deal.rules.ranking))}{mark}")
    return hands


def game_view(state: DailyState, live: LiveTable, guild_id: int) -> discord.ui.View | None:
    """A button for each decision the member may make now (``None``: none)."""
    deal = state.game.deal
    if deal.finished:
        return None
    obs = deal.observation(state.game.seat)
    neighbour = panel.neighbour_name(live, deal, state.game.seat)
    items: list[DailyButton] = []
    for name, decisions in panel.groups(deal, state.game.seat):
        for decision in decisions:
            value = None if name not in choices.SELECTS else choices.value(decision)
            control = name if value is None else choices.control(decision)
            items.append(DailyButton(
                guild_id, state.number, state.game.seq, control, value,
                label=panel.pick_label(name, decision, obs, live, neighbour),
                style=CONTROLS[name].on_panel))
    items = items[:MAX_BUTTONS]
    for i, item in enumerate(items):
        item.row = i // panel.PER_ROW
    return dynamic_view(*items) if items else None


def board_embed(board: DailyBoard, today: datetime.date) -> discord.Embed:
    """A day's board: every finished game's points and duplicate score (the
    points less the average of everyone who played the same cards)."""
    embed = discord.Embed(title=_("Daily deal board · {day}").format(day=board.day.isoformat()),
                          colour=GREEN)
    if not board.lines:
        embed.description = (_("Nobody has finished this day's deal yet.") if board.day >= today
                             else _("Nobody finished that day's deal."))
        return embed
    labels = names.board_labels([line.member_id for line in board.lines],
                                {line.member_id: line.name for line in board.lines})
    rows = [_("{rank}. {name}: {points} points, duplicate {score}").format(
        rank=line.rank, name=labels[line.member_id],
        points=signed(line.result), score=f"{line.score:+.1f}")
        for line in board.lines[:BOARD_LINES]]
    embed.description = "\n".join(rows)
    embed.set_footer(text=_("Duplicate score: your points less the average of the {count} "
                            "players who played the same cards.").format(count=len(board.lines)))
    return embed


def record_file(day: datetime.date, record: dict[str, Any]) -> discord.File:
    """The member's game of ``day`` as ``commerce-daily-<day>.json``: what
    ``python -m bot.engine verify`` and ``replay`` read (docs/RECORDS.md)."""
    data = json.dumps(record, indent=1).encode()
    return discord.File(io.BytesIO(data), filename=f"commerce-daily-{day.isoformat()}.json")


def record_text(day: datetime.date) -> str:
    """What the attached record of the member's game is, and how to check it."""
    return _("Your game of {day}, with the day's seed: check it with `python -m bot.engine "
             "verify commerce-daily-{day}.json --commitment C`, C the commitment above.").format(
        day=day.isoformat())


def proof_embed(proof: DailyProof) -> discord.Embed:
    """A day's commitment, and its seed once the day is over, checked."""
    embed = discord.Embed(title=_("Daily deal shuffle · {day}").format(day=proof.day.isoformat()),
                          colour=GREEN)
    embed.add_field(name=_("Commitment (SHA-256 of the seed)"), value=f"`{proof.commitment}`",
                    inline=False)
    if proof.seed is None:
        embed.add_field(name=_("Seed"), value=_("Secret until the day ends, {when}.").format(
            when=render.when(proof.ends)), inline=False)
        return embed
    embed.add_field(name=_("Seed"), value=f"`{proof.seed}`", inline=False)
    embed.add_field(name=_("Check"), value=(
        _("✅ SHA-256 of the seed is the commitment.") if proof.verified
        else _("❌ SHA-256 of the seed is not the commitment.")) + "\n" + _(
        "Every player's deck that day is the seed's deck of deal 1, attempt 1, no cuts, "
        "with the day's number as the table."),
        inline=False)
    return embed

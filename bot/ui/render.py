"""Embeds and texts, rendered only from observations (OpenSpiel manner).

Public messages take the public observation (``deal.observation(None)``) or a
finished deal's showdown; only ``hand_text`` sees a hand, and it is only ever
sent ephemerally to that hand's owner.
"""

from __future__ import annotations

import datetime
import functools
from typing import NamedTuple

import discord

from .. import i18n
from ..engine import AnyDeal, Observation, PublicEvent, Rules, Showdown, describe
from ..engine.actions import Action
from ..i18n import N_, _, ngettext
from ..service import LiveTable
from . import names, payments, proofs
from .cards import card_label, hand_label
from .controls import label
from .status import MESSAGE, ending_line, status_line
from .words import hand_words, signed
from .words import names_list as names_list  # the commands and timers use them through render
from .words import plural as plural

GREEN = discord.Colour.from_rgb(46, 125, 50)
#: how many of the latest public moves the table message lists
RECENT = 4
GOLD = discord.Colour.gold()


#: the most characters an embed field's value may hold (Discord's limit)
FIELD_VALUE = 1024


def add_lines(embed: discord.Embed, name: str, lines: list[str], *, inline: bool = True) -> None:
    """Add ``lines`` to ``embed`` as the field ``name``, continued in further fields
    (``name (continued)``) where one field's value would pass Discord's
    ``FIELD_VALUE`` characters: a table of twelve long names escaped for markdown
    does (one line is never split)."""
    chunks: list[list[str]] = [[]]
    for line in lines:
        if chunks[-1] and len("\n".join([*chunks[-1], line])) > FIELD_VALUE:
            chunks.append([])
        chunks[-1].append(line)
    for i, chunk in enumerate(chunks):
        embed.add_field(name=name if i == 0 else _("{name} (continued)").format(name=name),
                        value="\n".join(chunk),
                        inline=inline)


def when(moment: datetime.datetime) -> str:
    """A Discord relative timestamp ("in 40 seconds"), shown in each reader's clock."""
    return discord.utils.format_dt(moment, "R")


@functools.lru_cache(maxsize=1024)
def _labels(seats: tuple[tuple[str, int | None, str | None], ...],
            language: str) -> tuple[str, ...]:
    """``names.seat_labels`` of ``seats`` in ``language`` (the current one: a key
    of the cache, since an AI seat's word and level and ``Player <n>`` are worded)."""
    rows = [SeatName(name, member) for name, member, _ in seats]
    return tuple(names.seat_labels(rows, [level for _, _, level in seats]))


class SeatName(NamedTuple):
    """A seat as ``names.seat_labels`` reads it."""

    name: str
    member_id: int | None


def seat_labels(live: LiveTable) -> tuple[str, ...]:
    """Every seat's name as plain text (``names.seat_labels``: readable, never
    blank, an AI seat marked, look-alikes numbered; an AI seat's level named when
    it is not the default, docs/AI.md), for pictures and button or menu labels."""
    return _labels(tuple((s.name, s.member_id, s.ai_level) for s in live.seats),
                   i18n.current())


def seat_label(live: LiveTable, seat: int) -> str:
    """One seat's name as plain text (``seat_labels``): for pictures, button and
    menu labels, embed footers; never in markdown text (``seat_name``)."""
    return seat_labels(live)[seat]


def seat_name(live: LiveTable, seat: int, *, mention: bool = False) -> str:
    """A seat as message text shows it (contents, embed descriptions, fields and
    titles): its ``seat_label`` made inert for markdown (``names.markdown_safe``),
    or, with ``mention``, the member's mention (only where they are to be pinged,
    outside embeds; an AI seat is never mentioned)."""
    s = live.seats[seat]
    if mention and s.member_id is not None:
        return f"<@{s.member_id}>"
    return names.markdown_safe(seat_label(live, seat))


def ping_target(live: LiveTable) -> int | None:
    """The member the table message pings now: the one to move (never an AI
    seat, nobody once the deal is over, nor the target of an offer: the offer's
    own message pings them, ``offer_ping``)."""
    deal = live.deal
    if (deal is None or deal.finished or deal.to_act is None or live.is_ai(deal.to_act)
            or deal.pending is not None):
        return None
    return live.member_of(deal.to_act)


def ping_text(live: LiveTable) -> str:
    """The line above the table message: who is to move (``ping_target``)."""
    deal = live.deal
    if ping_target(live) is None or deal is None or deal.to_act is None:
        return ""
    return _("{name}, your move.").format(name=seat_name(live, deal.to_act, mention=True))


def offer_ping(live: LiveTable) -> str:
    """The message that pings the target of the deal's pending offer (a barter,
    or a direct trade), saying how to answer it."""
    deal = live.deal
    assert deal is not None and deal.pending is not None and deal.to_act is not None
    answers = deal.controls().answers
    if "decline" in answers:  # a direct trade: the card is shown to the target
        how = _("Press My hand to see the card; Accept (then pick the card you give back) or Decline.")
    elif "refuse" in answers:  # a barter, refused by knocking
        how = _("Choose the card you give back before you see theirs, or refuse by knocking.")
    else:
        how = _("Choose the card you give back before you see theirs (you must accept).")
    return _("{target}, {name} offers you a card face down. {how}").format(
        target=seat_name(live, deal.to_act, mention=True), name=seat_name(live, deal.pending.seat),
        how=how)


#: what the AI did, in words that name no card (a move made for a member whose
#: time ran out is told to the whole table)
_DONE = {"trade": N_("traded"), "barter_offer": N_("offered a barter"),
         "barter_answer": N_("answered the barter"),
         "knock": N_("knocked"), "take_widow": N_("took the widow"), "keep_hand": N_("kept the hand"),
         "swap": N_("swapped with the widow"), "stand": N_("stood"), "pounce": N_("pounced"),
         "buy_horse": N_("bought a horse"), "decline_horse": N_("declined the horse"),
         "take_discard": N_("took the discard"), "draw": N_("drew from the stock"),
         "draw_keep": N_("kept the drawn card"), "draw_discard": N_("threw the drawn card away"),
         "pass": N_("passed"), "offer": N_("offered a trade"), "offer_answer": N_("answered the trade")}


def moves_made(live: LiveTable, deal_number: int, seq: int, seat: int) -> str:
    """What ``seat`` did in deal ``deal_number`` from operation ``seq`` on, in
    words naming no card ("traded then knocked"); empty when nothing (or when
    the deal is no longer the table's latest)."""
    if live.game is None or live.deal_number != deal_number or live.deal is None:
        return ""
    done = [_(_DONE[op.kind]) if op.kind in _DONE else op.kind.replace("_", " ")
            for op in live.deal.operations[seq:] if op.seat == seat]
    return _(" then ").join(done)


def member_name(live: LiveTable, member_id: int) -> str:
    """A member's name at the table (their seat's), or their mention if not seated."""
    seat = live.seat_of(member_id)
    return seat_name(live, seat) if seat is not None else f"<@{member_id}>"


def event_text(live: LiveTable, event: PublicEvent | None) -> str:
    """One line for the last public action; never names a concealed card."""
    if event is None:
        return _("The cards are dealt.")
    who = seat_name(live, event.seat)
    if event.kind == "trade":
        dealer = live.deal.dealer if live.deal is not None else None
        text = (_("{who} traded with the dealer") if event.seat != dealer
                else _("{who}, the dealer, traded a card for the stock top")).format(who=who)
        if event.shown is not None:
            text += _(" (gave {cards} face up)").format(cards=hand_label([event.shown]))
        return text + (_(" and knocked.") if event.knocked else ".")
    other = seat_name(live, event.target) if event.target is not None else ""
    if event.kind == "barter_offer":
        return _("{who} offered {other} a card face down.").format(who=who, other=other)
    if event.kind == "barter_accept":
        return (_("{other} accepted {who}'s barter.").format(who=who, other=other)
                + (" " + _("{who} knocked.").format(who=who) if event.knocked else ""))
    if event.kind == "barter_refuse":
        return _("{who} refused {other}'s barter by knocking.").format(who=who, other=other)
    given, taken = hand_label(event.given), hand_label(event.taken)
    simple = {
        "take_widow": N_("{who} took the widow; their old hand {given} lies face up."),
        "keep_hand": N_("{who} kept their hand."),
        "swap": N_("{who} put {given} into the middle and took {taken}."),
        "stand": N_("{who} stands."),
        "pounce": N_("{who} pounced on {taken}!"),
        "buy_horse": N_("{who} bought a horse: one more life."),
        "decline_horse": N_("{who} declined the horse and sits out."),
        "take_discard": N_("{who} laid {given} on the pile and took {taken}."),
        "draw": N_("{who} drew from the stock."),
        "draw_keep": N_("{who} kept the drawn card and laid {given} on the pile."),
        "draw_discard": N_("{who} threw the drawn card, {given}, on the pile."),
        "pass": N_("{who} passed."),
        "offer": N_("{who} offered {other} a trade."),
        "offer_accept": N_("{other} accepted {who}'s trade."),
        "offer_refuse": N_("{other} declined {who}'s trade."),
    }
    return _(simple.get(event.kind, N_("{who} knocked."))).format(
        who=who, other=other, given=given, taken=taken)


def game_length(rules: Rules) -> str:
    """How long a game of ``rules`` lasts, in words: deals per player, until one
    player has lives left (oldway), or until one has chips left or the fixed
    rounds are played (jaques)."""
    if rules.game_end == "lives":
        return _("{lives} each, until one player is left").format(lives=plural(rules.lives, 'life'))
    if rules.game_end == "chips":
        length = _("{chips} each, until one player has chips left").format(
            chips=plural(rules.chips, 'chip'))
        if rules.fixed_rounds:
            length += _(" or {rounds} are played").format(rounds=plural(rules.fixed_rounds, 'round'))
        return length
    return _("{deals} per player").format(deals=plural(rules.deals_per_player, 'deal'))


#: a table's status as its lobby message says it, and its direction of play
STATUSES = {"lobby": N_("Waiting for players"), "playing": N_("Game in progress"),
            "finished": N_("Game over"), "closed": N_("Table closed")}
DIRECTIONS = {"clockwise": N_("play clockwise"), "anticlockwise": N_("play anticlockwise")}


def lobby_embed(live: LiveTable) -> discord.Embed:
    """The lobby: preset, options, seats in join order."""
    rules = live.rules
    status = _(STATUSES[live.row.status])
    embed = discord.Embed(
        title=_("Commerce table {number} · {preset}").format(number=live.row.number, preset=rules.name),
        description=f"{_(rules.summary)}\n\n**{status}** · "
        + _("host {name}").format(name=member_name(live, live.row.host_id)),
        colour=GREEN,
    )
    seats = "\n".join(f"{s.seat + 1}. {seat_name(live, s.seat)}" for s in live.seats) or "—"
    embed.add_field(name=_("Seats ({seated}/{most})").format(seated=len(live.seats),
                                                             most=rules.max_players), value=seats)
    embed.add_field(
        name=_("Rules"),
        value=_("{least}–{most} players").format(least=rules.min_players, most=rules.max_players)
        + f" · {game_length(rules)}"
        + " · " + _(DIRECTIONS.get(rules.direction, rules.direction))
        + ("\n" + _("Options: ") + ", ".join(f"{k} {v}" if not isinstance(v, bool) else k
                                      for k, v in sorted(live.row.options.items()))
           if live.row.options else ""),
    )
    proofs.add_lobby_shuffle(embed, live)
    if live.row.status == "lobby":
        embed.set_footer(text=_("Join, add AI seats, then the host presses Start "
                                "(at least {least} seats). The Add AI button seats "
                                "an easy AI; /commerce addbot level:strong seats a stronger one. "
                                "Cut adds your own word to the first deal's shuffle.").format(
                                    least=rules.min_players))
    return embed


def table_embed(live: LiveTable, *, deadline: datetime.datetime | None = None,
                ) -> discord.Embed:
    """The public table message of the current deal (from the public observation),
    saying what its picture (``media.table_png``) cannot: who is to act and
    when their time runs out (``deadline``, a relative timestamp), the latest
    moves, the seats the AI plays for, and in the footer what to do and who cut
    the deal. The seats, balances, chips, lives, dealer, pool, stock and face-up
    cards are the picture's alone; once the deal is over, when the next one
    comes is its showdown's to say."""
    deal = live.deal
    game = live.game
    assert deal is not None and game is not None
    obs = deal.observation(None)
    embed = discord.Embed(
        title=_("Commerce table {number} · {preset}").format(number=live.row.number,
                                                             preset=live.rules.name)
        + " · " + (_("deal {number} of {total}") if game.deals_total else _("deal {number}")).format(
            number=live.deal_number, total=game.deals_total),
        colour=GREEN if not obs.finished else GOLD,
    )
    recent = [event_text(live, e) for e in deal.events[-RECENT:]]
    timing = ""
    if deadline is not None and not obs.finished:
        timing = "\n⏱ " + _("Time runs out {when}; then the AI moves for them.").format(
            when=when(deadline))
    embed.description = (
        f"**{table_status(live, obs)}**{timing}{ai_plays(live)}\n\n"
        + ("\n".join(f"• {line}" for line in recent) or event_text(live, None))
    )
    if not obs.finished:
        embed.set_footer(text=footer(obs))
    proofs.stamp_table_cuts(embed, live)
    return embed


def ai_plays(live: LiveTable) -> str:
    """A line for the seats the AI plays for because their member left or is away
    (the picture does not show why a seat moves by itself); empty when none."""
    gone = [seat_name(live, s.seat) for s in live.seats if s.gone]
    away = [seat_name(live, s.seat) for s in live.seats if s.away and not s.gone]
    text = ""
    if gone:
        text += "\n" + ngettext("{names} left: the AI plays for them.",
                                "{names} left: the AI plays for them.", len(gone)).format(
                                    names=names_list(gone))
    if away:
        text += "\n💤 " + ngettext("{names} is away: the AI plays until they press **I'm back**.",
                                   "{names} are away: the AI plays until they press **I'm back**.",
                                   len(away)).format(names=names_list(away))
    return text


def table_status(live: LiveTable, obs: Observation) -> str:
    """The table message's bold line: whose answer or move is awaited (an offer's
    target, the dealer's widow choice, a horse to buy, the seat to act), or that
    the deal is over (``status.status_line``, worded for messages)."""
    return status_line(obs, lambda seat: seat_name(live, seat), MESSAGE)


def middle_fields(obs: Observation) -> list[tuple[str, str]]:
    """The inline ``(name, value)`` fields of what lies on the table, in order:
    the widow (widow family; its cards in the order the table picture lays them
    out), the discard pile (discard family), the pool or the pots (points or
    chips), the horse (oldway) and the stock, when it is used. For a view with
    no picture (a replayed step in the history)."""
    fields = []
    if obs.widow is not None:
        fields.append((_("Middle (face up)") if obs.rules.lives else _("Widow (face up)"),
                       " ".join(card_label(c) for c in obs.widow) or "—"))
    if obs.discard_top is not None:
        top = hand_label([obs.discard_top])
        fields.append((_("Discard pile"), _("{card} on top ({count})").format(
            card=top, count=obs.discard_count)))
    if len(obs.pots) > 1:
        fields.append((_("Pots"), " · ".join(
            f"{_(name)} {v}" for name, v in zip((N_("tricon"), N_("sequence/flush"), N_("pair/high")),
                                             obs.pots, strict=False))))
    else:
        fields.append((_("Pot") if obs.chips is not None else _("Pool"), str(obs.pool)))
    if obs.lives is not None and obs.rules.horse:
        fields.append((_("Horse"), _("still for sale (1 point)") if obs.horse_available
                       else _("already taken")))
    if obs.widow is None or obs.stock_count:
        fields.append((_("Stock"), plural(obs.stock_count, "card")))
    return fields


def footer(obs: Observation) -> str:
    """How to play, under the table message: by what lies on the table (a widow,
    called the middle where players have lives, as ``status.middle_word``; a
    discard pile; or neither: trade and barter)."""
    family = "widow" if obs.widow is not None else "discard" if obs.discard_top is not None else "trade"
    if family == "widow" and obs.rules.lives:
        family = "middle"
    return _(FOOTERS[family])


FOOTERS = {
    "trade": N_("My hand shows your cards privately. Trade: give a card and 1 point to the dealer "
                "for the stock top. Barter: swap blind with your neighbour."),
    "widow": N_("My hand shows your cards privately. Swap with the widow; stop when you like "
                "your hand."),
    "middle": N_("My hand shows your cards privately. Swap with the middle; stop when you like "
                 "your hand."),
    "discard": N_("My hand shows your cards privately. Take the top discard, draw from the stock, "
                  "pass, or knock for a last round."),
}

def action_names(obs: Observation) -> list[str]:
    """``obs.legal`` as the controls that make them are labelled (``controls.CONTROLS``):
    "Swap", "Stand"...; a direct trade is refused with its Decline button (§2.7)."""
    discard = obs.family == "discard"
    return [label(Action.DECLINE if discard and a == Action.REFUSE else a) for a in obs.legal]


def hand_text(live: LiveTable, obs: Observation) -> str:
    """The private hand message for ``obs.seat`` (ephemeral only)."""
    assert obs.seat is not None
    if obs.hand is None or not obs.hand:
        if obs.blind:
            why = _("not looked at yet: decide about the widow first.")
        elif live.game is not None and obs.seat not in live.game.in_play:
            why = (_("none: you are out of the game (no chips left).") if obs.rules.chips
                   else _("none: you are out of the game (no lives left)."))
        else:
            why = _("you sit out this deal.")
        lines = [_("**Your hand:** ") + why]
    else:
        lines = [_("**Your hand:** ") + f"{hand_label(obs.hand)} — "
                 + hand_words(describe(obs.hand, obs.rules.ranking))]
    if obs.drawn is not None:
        lines.append(_("You drew **{card}**: keep it or throw it away.").format(
            card=hand_label([obs.drawn])))
    if obs.offered_card is not None:
        lines.append(_("You are offered **{card}**.").format(card=hand_label([obs.offered_card])))
    if obs.finished:
        lines.append(_("This deal is over."))
    elif obs.barter is not None and obs.barter[1] == obs.seat:
        refuse = _(", or refuse by knocking") if "refuse" in obs.legal else _(" (you must accept)")
        lines.append(_("{name} offers you a card face down: choose the card you give back{refuse}.")
                     .format(name=seat_name(live, obs.barter[0], mention=False), refuse=refuse))
    elif "barter" in obs.legal:
        fee = _("free for you as dealer") if obs.seat == obs.dealer else _("costs 1 point")
        neighbour = live.deal.neighbour(obs.seat) if live.deal is not None else None
        partner = (_(" with {neighbour}").format(neighbour=seat_name(live, neighbour))
                   if neighbour is not None else "")
        lines.append(_("**Your turn.** Trade ({fee}), Barter{partner} or Knock.").format(
            fee=fee, partner=partner))
    elif obs.legal:
        lines.append(_("You may: ") + ", ".join(action_names(obs)) + ".")
    else:
        lines.append(_("Not your turn yet."))
    return "\n".join(lines)


def showdown_embed(live: LiveTable, *, next_deal: datetime.datetime | None = None,
                   ) -> discord.Embed:
    """A finished deal's showdown in words: how it ended, who won what and what
    comes next (``next_deal``: when the next deal comes by itself). The hands and
    the payments are the showdown picture's (``media.showdown_file``, its alt
    text says them too), the standing the table picture's, and the deal's
    fair-shuffle proof is one click away (``proofs.deal_proof``, the **Proof**
    button): the text says only what no picture shows."""
    deal = live.deal
    assert deal is not None and deal.showdown is not None
    sd = deal.showdown
    embed = discord.Embed(title=_("Showdown · deal {number}").format(number=live.deal_number),
                          colour=GOLD)
    embed.description = f"{how_it_ended(live, sd)}\n{showdown_result(live, deal)}"
    if next_deal is not None:
        embed.description += "\n\n⏭ " + _("Next deal {when}, or press **Next deal**.").format(
            when=when(next_deal))
    return embed


def payment_lines(live: LiveTable, deal: AnyDeal) -> list[str]:
    """One line per seat: what ``deal`` changed for it, itemised by reason
    ("Ann: +5 points (pool 6, ante −1)"; ``payments.Tally.text``)."""
    return [f"{seat_name(live, t.seat)}: {t.text()}" for t in payments.tallies(deal)]


def how_it_ended(live: LiveTable, sd: Showdown) -> str:
    """How play stopped: the stock ran out (trade and barter, §2.1), everyone
    stood (widow), a whole round passed (jaques), or who knocked
    (``status.ending_line``)."""
    return ending_line(sd, lambda seat: seat_name(live, seat))


def showdown_result(live: LiveTable, deal: AnyDeal) -> str:
    """Who won what, one line each: the best hand and the pool it takes (or the
    pool carried over when nobody holds anything), then by family who loses a
    life or pays into the pot, a horse bought, and who takes the final sweep or
    pot when the deal ended the game (docs/RULES.md §2.5–§2.7)."""
    sd = deal.showdown
    assert sd is not None
    lives = sd.lives is not None  # oldway: the worst hand loses a life
    if sd.winner is None:
        result = _("Nobody holds anything: the pool of {pool} carries over.").format(
            pool=sum(deal.pots))
    elif lives:
        result = "🏆 " + _("{name} has the best hand and takes {pool}.").format(
            name=seat_name(live, sd.winner), pool=sd.pool_won)
    elif sd.chips is not None:
        result = _("Best hand: {name}.").format(name=seat_name(live, sd.winner))
    else:
        result = "🏆 " + _("{name} wins the pool of {pool}.").format(
            name=seat_name(live, sd.winner), pool=sd.pool_won)
    if sd.losers:
        names = names_list([seat_name(live, s) for s in sd.losers])
        count = len(sd.losers)
        result += ("\n💔 " + ngettext("{names} loses a life.", "{names} lose a life.", count)
                   if lives else "\n" + ngettext("{names} pays into the pot.",
                                                 "{names} pay into the pot.", count)
                   ).format(names=names)
    if sd.horse is not None:
        result += "\n🐴 " + _("{name} bought a horse.").format(name=seat_name(live, sd.horse))
    if sd.game_winners:
        names = names_list([seat_name(live, s) for s in sd.game_winners])
        count = len(sd.game_winners)
        result += "\n🏁 " + (
            ngettext("{names} takes the pool's sweep.", "{names} take the pool's sweep.", count)
            if lives else ngettext("{names} takes the pot.", "{names} take the pot.", count)
        ).format(names=names)
    return result


def standing_lines(live: LiveTable) -> list[str]:
    """One line per seat: balance, and chips or lives where the preset has them."""
    game = live.game
    if game is None:
        return []
    ledger = game.ledger
    chips = game.chips
    lives = game.lives
    lines = []
    for s in range(game.n):
        text = f"{seat_name(live, s)}: {signed(ledger[s])}"
        if chips is not None:
            text += f" · {plural(chips[s], 'chip')}"
        if lives is not None:
            text += _(" · lives {hearts}").format(hearts='♥' * lives[s] or _('none'))
        lines.append(text)
    return lines


def final_embed(live: LiveTable) -> discord.Embed:
    """Final standings; a shared victory on ties. A game closed before its end
    (``/commerce end``, an admin, a deleted channel) shows the standings as they
    were when it closed, and no winner."""
    game = live.game
    assert game is not None
    ledger = game.ledger
    winners = game.winners or []
    order = sorted(range(game.n), key=lambda s: (-ledger[s], s))
    by_seat = dict(enumerate(standing_lines(live)))
    lines = [f"{i + 1}. {by_seat[s]}" + (" 🏆" if s in winners else "")
             for i, s in enumerate(order)]
    if game.complete:
        names = ", ".join(seat_name(live, s) for s in winners)
        title = _("Victory shared") if len(winners) > 1 else _("Winner")
        head = f"**{title}:** {names}"
    else:
        head = _("**Closed before its end**: no winner. The standings when it closed "
                 "(an unfinished deal was refunded):")
    embed = discord.Embed(title=_("Game over · table {number}").format(number=live.row.number),
                          colour=GOLD,
                          description=head + "\n\n" + "\n".join(lines))
    closing = {"channel": _("This channel is now read-only. "),
               "thread": _("This thread is now locked. ")}.get(live.row.place or "", "")
    embed.set_footer(text=closing + _("Start another game with /commerce new."))
    proofs.add_final_proof(embed, live)
    proofs.export_hint(embed, live)
    return embed

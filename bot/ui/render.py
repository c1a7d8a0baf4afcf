"""Embeds and texts, rendered only from observations (STYLE.md, OpenSpiel manner).

Public messages take the public observation (``deal.observation(None)``) or a
finished deal's showdown; only ``hand_text`` sees a hand, and it is only ever
sent ephemerally to that hand's owner.
"""

from __future__ import annotations

import discord

from ..engine import Observation, PublicEvent, describe, hand_label
from ..service import LiveTable

GREEN = discord.Colour.from_rgb(46, 125, 50)
GOLD = discord.Colour.gold()


def seat_name(live: LiveTable, seat: int, *, mention: bool = True) -> str:
    """A seat as shown publicly: the member's mention, or the AI's name."""
    s = live.seats[seat]
    if s.member_id is None:
        return f"🤖 {s.name}"
    return f"<@{s.member_id}>" if mention else s.name


def event_text(live: LiveTable, event: PublicEvent | None) -> str:
    """One line for the last public action; never names a concealed card."""
    if event is None:
        return "The cards are dealt."
    who = seat_name(live, event.seat)
    if event.kind == "trade":
        dealer = live.deal.dealer if live.deal is not None else None
        text = (f"{who} traded with the dealer" if event.seat != dealer
                else f"{who}, the dealer, traded a card for the stock top")
        if event.shown is not None:
            text += f" (gave {hand_label([event.shown])} face up)"
        return text + (" and knocked." if event.knocked else ".")
    assert event.target is not None or event.kind == "knock"
    other = seat_name(live, event.target) if event.target is not None else ""
    if event.kind == "barter_offer":
        return f"{who} offered {other} a card face down."
    if event.kind == "barter_accept":
        return f"{other} accepted {who}'s barter." + (f" {who} knocked." if event.knocked else "")
    if event.kind == "barter_refuse":
        return f"{who} refused {other}'s barter by knocking."
    return f"{who} knocked."


def lobby_embed(live: LiveTable) -> discord.Embed:
    """The lobby: preset, options, seats in join order."""
    rules = live.rules
    status = {"lobby": "Waiting for players", "playing": "Game in progress",
              "finished": "Game over", "closed": "Table closed"}[live.row.status]
    embed = discord.Embed(
        title=f"Commerce table {live.row.number} · {rules.name}",
        description=f"{rules.summary}\n\n**{status}** · host <@{live.row.host_id}>",
        colour=GREEN,
    )
    seats = "\n".join(f"{s.seat + 1}. {seat_name(live, s.seat)}" for s in live.seats) or "—"
    embed.add_field(name=f"Seats ({len(live.seats)}/{rules.max_players})", value=seats)
    embed.add_field(
        name="Rules",
        value=f"{rules.min_players}–{rules.max_players} players · "
        f"{rules.deals_per_player} deal{'s' if rules.deals_per_player > 1 else ''} per player"
        f" · play {rules.direction}",
    )
    if live.row.status == "lobby":
        embed.set_footer(text=f"Join, add AI seats, then the host presses Start "
                              f"(at least {rules.min_players} seats).")
    return embed


def table_embed(live: LiveTable) -> discord.Embed:
    """The public table message of the current deal (from the public observation)."""
    deal = live.deal
    game = live.game
    assert deal is not None and game is not None
    obs = deal.observation(None)
    embed = discord.Embed(
        title=f"Commerce table {live.row.number} · deal {live.deal_number} of {game.deals_total}",
        colour=GREEN if not obs.finished else GOLD,
    )
    if obs.finished:
        status = "This deal is over: see the showdown below."
    elif obs.barter is not None:
        a, b = obs.barter
        status = f"Waiting for {seat_name(live, b)} to answer {seat_name(live, a)}'s barter."
    else:
        assert obs.to_act is not None
        status = f"To act: {seat_name(live, obs.to_act)}"
    embed.description = (
        f"Dealer: {seat_name(live, obs.dealer)}\n**{status}**\n\n"
        f"Last: {event_text(live, obs.last_event)}"
    )
    embed.add_field(name="Pool", value=str(obs.pool))
    embed.add_field(name="Stock", value=f"{obs.stock_count} cards")
    balances = game.running_balances
    lines = []
    for s in range(obs.n_seats):
        marks = ("🂠 " if s == obs.dealer else "") + ("▶ " if s == obs.to_act else "")
        seat = live.seats[s]
        note = " · left, AI plays" if seat.gone else " · 💤 away, AI plays" if seat.away else ""
        lines.append(f"{marks}{seat_name(live, s)}: {balances[s]:+d}{note}")
    embed.add_field(name="Balances", value="\n".join(lines), inline=False)
    if obs.shown_waste:
        embed.add_field(name="Traded face up", value=hand_label(obs.shown_waste), inline=False)
    if not obs.finished:
        embed.set_footer(text="My hand shows your cards privately. Trade: give a card and 1 point "
                              "to the dealer for the stock top. Barter: swap blind with your "
                              "neighbour.")
    return embed


def hand_text(live: LiveTable, obs: Observation) -> str:
    """The private hand message for ``obs.seat`` (ephemeral only)."""
    assert obs.hand is not None and obs.seat is not None
    lines = [f"**Your hand:** {hand_label(obs.hand)} — {describe(obs.hand, obs.rules.ranking)}"]
    if obs.finished:
        lines.append("This deal is over.")
    elif obs.barter is not None and obs.barter[1] == obs.seat:
        lines.append(f"{seat_name(live, obs.barter[0], mention=False)} offers you a card: "
                     "press **Accept** (then pick the card you give) or **Refuse (knock)**.")
    elif obs.to_act == obs.seat:
        fee = "free for you as dealer" if obs.seat == obs.dealer else "costs 1 point"
        lines.append(f"**Your turn.** Trade ({fee}), Barter or Knock.")
    else:
        lines.append("Not your turn yet.")
    return "\n".join(lines)


def showdown_embed(live: LiveTable) -> discord.Embed:
    """Every hand with its category, the winner and the payments of a finished deal."""
    deal = live.deal
    assert deal is not None and deal.showdown is not None
    sd = deal.showdown
    ranking = deal.rules.ranking
    embed = discord.Embed(title=f"Showdown · deal {live.deal_number}", colour=GOLD)
    if sd.ended_by == "stock":
        how = "The stock ran out."
    else:
        assert sd.knocker is not None
        how = f"{seat_name(live, sd.knocker)} knocked."
    if sd.winner is None:
        result = f"Nobody holds anything: the pool of {deal.pool} carries over."
    else:
        result = f"🏆 {seat_name(live, sd.winner)} wins the pool of {sd.pool_won}."
    embed.description = f"{how}\n{result}"
    hands = []
    for s, h in enumerate(sd.hands):
        mark = " 🏆" if s == sd.winner else ""
        dealer = " (dealer)" if s == deal.dealer else ""
        hands.append(f"{seat_name(live, s)}{dealer}: {hand_label(h)} — {describe(h, ranking)}{mark}")
    embed.add_field(name="Hands", value="\n".join(hands), inline=False)
    penalties = [m for m in sd.payments if m.reason == "penalty"]
    if penalties:
        if len(penalties) > 1:
            pay = f"The dealer lost in the same kind of hand and pays 1 to each of the " \
                  f"{len(penalties)} other players."
        else:
            assert penalties[0].payee is not None
            pay = f"The dealer lost and pays 1 to {seat_name(live, penalties[0].payee)}."
        embed.add_field(name="Dealer pays", value=pay, inline=False)
    delta = "\n".join(f"{seat_name(live, s)}: {d:+d}" for s, d in enumerate(deal.delta))
    embed.add_field(name="This deal", value=delta)
    totals = "\n".join(f"{seat_name(live, s)}: {b:+d}"
                       for s, b in enumerate(live.game.ledger if live.game else []))
    embed.add_field(name="Totals", value=totals)
    return embed


def final_embed(live: LiveTable) -> discord.Embed:
    """Final standings; a shared victory on ties."""
    game = live.game
    assert game is not None
    ledger = game.ledger
    winners = game.winners or []
    order = sorted(range(game.n), key=lambda s: (-ledger[s], s))
    lines = [f"{i + 1}. {seat_name(live, s)}: {ledger[s]:+d}" + (" 🏆" if s in winners else "")
             for i, s in enumerate(order)]
    names = ", ".join(seat_name(live, s) for s in winners)
    title = "Victory shared" if len(winners) > 1 else "Winner"
    embed = discord.Embed(title=f"Game over · table {live.row.number}", colour=GOLD,
                          description=f"**{title}:** {names}\n\n" + "\n".join(lines))
    embed.set_footer(text="This channel is now read-only. Start another with /commerce new.")
    return embed

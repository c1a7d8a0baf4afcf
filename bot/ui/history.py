"""``/commerce history`` and ``/commerce export``: the embeds and controls of a
server's finished games — the list, one game with its deals, one deal with its
proof, and a deal replayed step by step — and a game's record as a JSON file.

Everything here shows games whose table is no longer open (``Archived``), so
every deal is over: hands, decks and seeds may all be shown.
"""

from __future__ import annotations

import io
import json
from typing import Any

import discord

from ..engine import AnyDeal, describe
from ..engine.proof import NOT_PROVEN, PROVEN, verify_record
from ..i18n import _, ngettext
from ..service import Archived, LiveTable
from ..storage import DealRow, PastGame
from . import names, proofs, render
from .cards import hand_label
from .components import HistoryButton, HistorySelect, HistoryState, view_of
from .words import hand_words, plural

#: games per page of the list
PER_PAGE = 10


def clip(text: str, limit: int = 1024) -> str:
    """``text`` cut to Discord's ``limit`` for an embed field (an ellipsis marks a cut)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def when(stamp: str | None) -> str:
    """The date of an ISO 8601 UTC time, ``YYYY-MM-DD`` (``—`` unknown)."""
    return stamp[:10] if stamp else "—"


def player(game: PastGame, seat: int) -> str:
    """A seat of a past game by name, as the table showed it (``names.seat_labels``:
    an AI seat marked, look-alikes numbered), made inert for markdown."""
    seats = [render.SeatName(name, member) for name, member in zip(game.players, game.members,
                                                                    strict=True)]
    return names.markdown_safe(names.seat_labels(seats)[seat])


def winners_text(game: PastGame) -> str:
    """Who won a game, or that it was closed before its end."""
    if game.status != "finished":
        return _("closed before its end")
    names = [player(game, s) for s in game.winners if 0 <= s < len(game.players)]
    return (_("won by {names}") if len(names) == 1 else _("shared by {names}")).format(
        names=", ".join(names or ["—"]))


def game_line(game: PastGame) -> str:
    """One game of the list: table, preset, date, players, winners."""
    return ("**" + _("Table {number}").format(number=game.number) + "**"
            f" · {game.preset} · {when(game.finished_at)} · {plural(game.deals, 'deal')}\n"
            f"{', '.join(player(game, s) for s in range(len(game.players)))} — "
            f"{winners_text(game)}")


def list_embed(games: list[PastGame], page: int, total: int) -> discord.Embed:
    """Page ``page`` (0-based) of the server's finished games, newest first."""
    pages = max(1, -(-total // PER_PAGE))
    embed = discord.Embed(title=_("Commerce history"), colour=render.GOLD,
                          description=clip("\n\n".join(game_line(g) for g in games), 4096)
                          or _("No game has finished on this server yet."))
    embed.set_footer(text=_("Page {page} of {pages}").format(page=page + 1, pages=pages) + " · "
                          + ngettext("{count} game", "{count} games", total).format(count=total)
                          + " · " + _("choose one to see its deals"))
    return embed


def list_view(guild_id: int, games: list[PastGame], page: int,
              total: int) -> discord.ui.View | None:
    """The game menu and, when there is more than one page, Previous / Next."""
    pages = max(1, -(-total // PER_PAGE))
    items: list[discord.ui.Item[Any]] = []
    if games:
        items.append(HistorySelect(
            guild_id, page, 0, placeholder=_("See a game"),
            choices=[(_("Table {number}").format(number=g.number)
                      + f" · {g.preset} · {when(g.finished_at)}", str(g.table_id))
                     for g in games]))
    if pages > 1:
        items += [HistoryButton(guild_id, HistoryState("list", max(page - 1, 0)), "prev",
                                _("Previous"), disabled=page <= 0, row=1),
                  HistoryButton(guild_id, HistoryState("list", min(page + 1, pages - 1)),
                                "next", _("Next"), disabled=page >= pages - 1, row=1)]
    return view_of(*items) if items else None


def name(live: LiveTable, seat: int) -> str:
    """A seat by name (history never pings)."""
    return render.seat_name(live, seat, mention=False)


def ended_text(live: LiveTable, deal: AnyDeal) -> str:
    """How a deal ended, in a few words."""
    sd = deal.showdown
    if sd is None:
        return _("voided when the table closed (stakes refunded)")
    if sd.ended_by == "stock":
        how = _("the stock ran out")
    elif sd.ended_by == "stand":
        how = _("everyone stood")
    elif sd.ended_by == "pass":
        how = _("a round of passes")
    elif sd.knocker is not None:
        how = _("{who} knocked").format(who=name(live, sd.knocker))
    else:
        how = _("over")
    if sd.winner is None:
        return how + _("; nobody held anything")
    return how + _("; best hand {name}").format(name=name(live, sd.winner))


def verified(record: dict[str, Any]) -> dict[str, Any]:
    """``verify_record``'s summary of a record that is known to replay."""
    summary: dict[str, Any] = verify_record(record)[1]
    return summary


#: how each of ``verify``'s checks is named on a game's page
CHECK_NAMES = {"commitment": "Commitment", "random": "Every random choice", "cuts": "Cuts",
               "complete": "Complete", "chain": "Record chain",
               "published": "Shown in the channel"}
MARKS = {PROVEN: "✅", NOT_PROVEN: "⚠️"}


def checks_text(summary: dict[str, Any]) -> str:
    """``verify``'s checks of a record, one line each (✅ proven, ⚠️ not proven,
    ❌ failed), and how to check without trusting the bot."""
    lines = []
    for check in summary["checks"]:
        if check["check"] == "published":
            continue  # the bot cannot vouch for itself: said below
        detail = check["detail"].replace("`", "'")
        lines.append(f"{MARKS.get(check['status'], '❌')} **{CHECK_NAMES[check['check']]}**: "
                     f"{clip(detail, 160)}")
    lines.append("To check without trusting the bot: **Export**, then run `python -m "
                 "bot.engine verify` with `--commitment` from the table's fair-shuffle "
                 "message and `--head` from its final standings.")
    return clip("\n".join(lines))


def game_embed(arch: Archived) -> discord.Embed:
    """One game: players and final standing, winners, each deal in one line, and
    how many deals check out as fair."""
    live, past = arch.live, arch.past
    game = live.game
    assert game is not None
    embed = discord.Embed(
        title=_("Table {number}").format(number=past.number)
        + f" · {past.preset} · {when(past.finished_at)}",
        colour=render.GOLD,
        description=_("Started {date}").format(date=when(past.started_at))
        + f" · {winners_text(past)}")
    ledger = game.ledger
    embed.add_field(name=_("Standing"), value=clip("\n".join(
        f"{name(live, s)}: {ledger[s]:+d}" + (" 🏆" if s in past.winners else "")
        for s in range(game.n))) or "—", inline=False)
    lines = [f"{i}. " + _("dealer {name}").format(name=name(live, d.dealer))
             + f" · {ended_text(live, d)}"
             for i, d in enumerate(game.deals, 1)]
    text = "\n".join(lines)
    if len(text) > 1024:
        text = "\n".join(lines[:12]) + "\n… " + _("{count} more: choose one below.").format(
            count=len(lines) - 12)
    embed.add_field(name=_("Deals"), value=text or "—", inline=False)
    summary = verified(arch.record)
    embed.add_field(name=_("Fair shuffle (checked by the bot)"), inline=False,
                    value=checks_text(summary))
    cut = sum(1 for d in summary["deals"] if d.get("cut_by"))
    embed.set_footer(text=_("Deals cut by a player: {cut} of {deals}").format(cut=cut, deals=len(lines))
                          + " · " + _("Export gives the record for python -m bot.engine verify"))
    return embed


def game_view(guild_id: int, arch: Archived, page: int) -> discord.ui.View:
    """Back to the list, Export, and a menu of the game's deals (25 at most;
    further deals are reached with Next deal)."""
    table = arch.live.id
    game = arch.live.game
    assert game is not None
    items: list[discord.ui.Item[Any]] = [
        HistoryButton(guild_id, HistoryState("list", page), "back", _("Back to the list"), row=0),
        HistoryButton(guild_id, HistoryState("export", page, table), "export", _("Export"), row=0),
        HistorySelect(guild_id, page, table, placeholder=_("See a deal"), choices=[
            ((_("Deal {number}").format(number=i) + f" · {ended_text(arch.live, d)}")[:100], str(i))
            for i, d in enumerate(game.deals, 1)]),
    ]
    return view_of(*items)


def hand_line(live: LiveTable, deal: AnyDeal, seat: int, hand: tuple[int, ...] | list[int],
              marks: str = "") -> str:
    """One seat's cards with the hand's name; the dealer marked."""
    dealer = _(" (dealer)") if seat == deal.dealer else ""
    if not hand:
        return f"{marks}{name(live, seat)}{dealer}: " + _("sits out")
    return (f"{marks}{name(live, seat)}{dealer}: {hand_label(hand)} — "
            f"{hand_words(describe(tuple(hand), deal.rules.ranking))}")


def proof_text(live: LiveTable, row: DealRow, item: dict[str, Any],
               burned: list[dict[str, Any]]) -> str:
    """A deal's proof: which attempt it was dealt from and who cut it (format 2),
    or its own commitment, seed and cut (format 1), the attempts at it that were
    burned, and whether it checks out (``item``: the deal as ``verify`` lists it)."""
    status = item.get("status")
    if row.attempt is None and row.commitment is None:
        return "This deal was not dealt from a committed seed: nothing proves its shuffle."
    if row.attempt is None:  # format 1: a seed of its own, one cut
        cutter = ("a member's press (its id, which no member can see)"
                  if row.cut_by is not None else "the bot (random bytes)")
        cuts = ", ".join(row.cuts or []) or "none"
        verdict = {"verified": "Its seed matches its commitment and gives this deck, but a "
                               "format 1 deal proves nothing against the bot.",
                   "failed": "Check FAILED: " + "; ".join(
                       f.get("reason", "") for f in item.get("failed", []))}.get(
            str(status), f"Not verifiable: {item.get('detail', '')}.")
        return clip(f"Commitment `{row.commitment}`\nSeed `{row.seed}`\nCut `{cuts}` by "
                    f"{cutter}\n**{verdict}**")
    cut_by = item.get("cut_by") or []
    who = (", ".join(f"{name(live, c['seat'])} `{c['text']}`" for c in cut_by)
           if cut_by else "nobody")
    lines = [f"Attempt {row.attempt} · cut by {who}"]
    for b in burned:
        top = " ".join((b.get("deck") or [])[:9])
        lines.append(f"Burned before it: attempt {b['attempt']} (a failed write)"
                     + (f"; its deck would have begun {top}" if top else ""))
    verdict = {PROVEN: "Proven: dealt from the game's seed and these cuts.",
               "not cut": _(proofs.NOT_CUT) + "."}.get(str(status),
                                                  f"Check FAILED: {item.get('detail', '')}")
    lines.append(f"**{verdict}**")
    return clip("\n".join(lines))


def deal_embed(arch: Archived, number: int) -> discord.Embed:
    """Deal ``number`` of a game: dealer, how it ended, every hand at the end,
    the payments, and the deal's proof."""
    live = arch.live
    game = live.game
    assert game is not None
    deal = game.deals[number - 1]
    embed = discord.Embed(title=f"Table {arch.past.number} · {arch.past.preset} · deal "
                                f"{number} of {len(game.deals)}", colour=render.GOLD)
    embed.description = (f"Dealer: {name(live, deal.dealer)}\nEnded: {ended_text(live, deal)}\n"
                         f"{len(arch.deals[number - 1].actions)} actions: Replay shows each")
    sd = deal.showdown
    hands = sd.hands if sd is not None else tuple(tuple(h) for h in deal.hands)
    winner = sd.winner if sd is not None else None
    embed.add_field(name="Hands at the end", inline=False, value=clip("\n".join(
        hand_line(live, deal, s, h) + (" 🏆" if s == winner else "")
        for s, h in enumerate(hands))))
    embed.add_field(name="Payments", value=clip("\n".join(render.payment_lines(live, deal))))
    summary = verified(arch.record)
    item = summary["deals"][number - 1]
    burned = [b for b in summary.get("burned", []) if b["deal"] == number]
    embed.add_field(name="Proof of the shuffle", inline=False,
                    value=proof_text(live, arch.deals[number - 1], item, burned))
    return embed


def deal_view(guild_id: int, arch: Archived, page: int, number: int) -> discord.ui.View:
    """Previous / Next deal, Replay, and back to the game."""
    table = arch.live.id
    total = len(arch.deals)
    return view_of(
        HistoryButton(guild_id, HistoryState("deal", page, table, max(number - 1, 1)), "prev",
                      "Previous deal", disabled=number <= 1),
        HistoryButton(guild_id, HistoryState("deal", page, table, min(number + 1, total)),
                      "next", "Next deal", disabled=number >= total),
        HistoryButton(guild_id, HistoryState("step", page, table, number, 0), "replay",
                      "Replay"),
        HistoryButton(guild_id, HistoryState("game", page, table), "back", "Back to the game"))


def changes(before: LiveTable, after: LiveTable) -> list[str]:
    """What each seat's hand lost and gained in one step (a deal that is over
    shows every card)."""
    assert before.deal is not None and after.deal is not None
    lines = []
    for seat, (old, new) in enumerate(zip(before.deal.hands, after.deal.hands, strict=True)):
        gave, got = [c for c in old if c not in new], [c for c in new if c not in old]
        if gave or got:
            lines.append(f"{name(after, seat)}: gave {hand_label(gave) or 'nothing'}, "
                         f"got {hand_label(got) or 'nothing'}")
    return lines


def step_embed(arch: Archived, number: int, step: int, total: int) -> discord.Embed:
    """Deal ``number`` replayed up to ``step`` of its ``total`` actions: the
    public action, what it changed, and every hand as it was then."""
    at = arch.at_step(number, step)
    deal = at.deal
    assert deal is not None
    embed = discord.Embed(
        title=f"Table {arch.past.number} · deal {number} · step {step} of {total}",
        colour=render.GREEN if not deal.finished else render.GOLD)
    if step == 0:
        text = f"The cards are dealt. Dealer: {name(at, deal.dealer)}."
    else:
        text = render.event_text(at, deal.last_event)
        text += "".join(f"\n• {line}" for line in changes(arch.at_step(number, step - 1), at))
    if deal.finished:
        text += f"\n**The deal is over:** {ended_text(at, deal)}."
    embed.description = clip(text, 4096)
    marks = {deal.to_act: "▶ "} if deal.to_act is not None and not deal.finished else {}
    embed.add_field(name="Hands", inline=False, value=clip("\n".join(
        hand_line(at, deal, s, h, marks.get(s, "")) for s, h in enumerate(deal.hands))))
    for field, value in render.middle_fields(deal.observation(None)):
        embed.add_field(name=field, value=value)
    return embed


def step_view(guild_id: int, page: int, table: int, number: int, step: int,
              total: int) -> discord.ui.View:
    """Previous / Next step and back to the deal."""
    return view_of(
        HistoryButton(guild_id, HistoryState("step", page, table, number, max(step - 1, 0)),
                      "prev", "Previous", disabled=step <= 0),
        HistoryButton(guild_id, HistoryState("step", page, table, number, min(step + 1, total)),
                      "next", "Next", disabled=step >= total),
        HistoryButton(guild_id, HistoryState("deal", page, table, number), "back",
                      "Back to the deal"))


def export_file(game: PastGame, record: dict[str, Any]) -> discord.File:
    """A game's record as ``commerce-table-<n>.json``: what ``python -m bot.engine
    replay`` and ``verify`` read (docs/RECORDS.md)."""
    data = json.dumps(record, indent=1).encode()
    return discord.File(io.BytesIO(data), filename=f"commerce-table-{game.number}.json")


EXPORT_TEXT = ("The record of table {number} ({preset}): every deck, action and cut, and the "
               "game's seed. Check it with `python -m bot.engine verify "
               "commerce-table-{number}.json --commitment C --head H`, C from the table's "
               "fair-shuffle message and H from its final standings (exit 0: everything "
               "proven), or replay it with `python -m bot.engine replay`.")

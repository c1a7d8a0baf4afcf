"""``/commerce history`` and ``/commerce export``: the embeds and controls of a
server's finished games — the list, one game with its deals, one deal with its
proof, and a deal replayed step by step — and a game's record as a JSON file.

Everything here shows games whose table is no longer open (``Archived``), so
every deal is over: hands, decks and seeds may all be shown.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import discord

from .. import i18n
from ..engine import AnyDeal, describe
from ..engine.proof import NOT_PROVEN, PROVEN, verify_record
from ..i18n import N_, _, ngettext
from ..service import Archived, LiveTable
from ..storage import DealRow, PastGame
from . import names, proofs, render
from .cards import hand_label
from .components import HistoryButton, HistorySelect, HistoryState, view_of
from .words import hand_words, plural, signed

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
CHECK_NAMES = {"commitment": N_("Commitment"), "random": N_("Every random choice"),
               "cuts": N_("Cuts"), "complete": N_("Complete"), "chain": N_("Record chain"),
               "published": N_("Shown in the channel")}
MARKS = {PROVEN: "✅", NOT_PROVEN: "⚠️"}
#: ``verify``'s details of a check (bot/engine/proof.py, English), by pattern, and the
#: catalog's words for each (``{deals}``: a count of deals, ``{numbers}``: deal numbers);
#: a detail of no pattern here (a failure's own figures) is shown as ``verify`` gives it
DETAILS = (
    (re.compile(r"SHA-256 of the seed is the commitment"), N_("SHA-256 of the seed is the commitment")),
    (re.compile(r"the first dealer, every deck and every reshuffle are what the seed and the "
                r"cuts give"),
     N_("the first dealer, every deck and every reshuffle are what the seed and the cuts give")),
    (re.compile(r"every deal was cut by a seated member"), N_("every deal was cut by a seated member")),
    (re.compile(r"deals? (.+) (?:was|were) not cut by anyone: the bot alone chose "
                r"(?:that shuffle|those shuffles)"),
     N_("not cut by anyone, so the bot alone chose the shuffle: deal {numbers}")),
    (re.compile(r"the game finished after (\d+) deals?, every attempt listed"),
     N_("the game finished after {deals}, every attempt listed")),
    (re.compile(r"the game was closed before its end after (\d+) deals?, every attempt listed"),
     N_("the game was closed before its end after {deals}, every attempt listed")),
    (re.compile(r"the chain over the record gives its head"), N_("the chain over the record gives its head")),
    (re.compile(r"the seed is not revealed yet(?:: the game is not over)?"),
     N_("the seed is not revealed yet")),
    (re.compile(r"the seed, the chain's key, is not revealed"), N_("the seed is not revealed yet")),
    (re.compile(r"the record carries no head"), N_("the record carries no head")),
    (re.compile(r"no deal was dealt"), N_("no deal was dealt")),
    (re.compile(r"the record does not say how the game ended: it is not over"),
     N_("the record does not say how the game ended: it is not over")),
)


def detail_words(detail: str) -> str:
    """A check's detail (``verify``'s English) in the current language
    (``DETAILS``); English, and a detail of no known pattern, as it is."""
    if i18n.current() == i18n.DEFAULT:
        return detail
    for pattern, template in DETAILS:
        found = pattern.fullmatch(detail)
        if found is not None:
            value = found.group(1) if found.groups() else ""
            deals = plural(int(value), "deal") if value.isdigit() else ""
            return _(template).format(numbers=value, deals=deals)
    return detail


def checks_text(summary: dict[str, Any]) -> str:
    """``verify``'s checks of a record, one line each (✅ proven, ⚠️ not proven,
    ❌ failed), and how to check without trusting the bot."""
    lines = []
    for check in summary["checks"]:
        if check["check"] == "published":
            continue  # the bot cannot vouch for itself: said below
        detail = detail_words(check["detail"]).replace("`", "'")
        lines.append(f"{MARKS.get(check['status'], '❌')} **{_(CHECK_NAMES[check['check']])}**: "
                     f"{clip(detail, 160)}")
    lines.append(_("To check without trusting the bot: **Export**, then run `python -m "
                   "bot.engine verify` with `--commitment` from the table's fair-shuffle "
                   "message and `--head` from its final standings."))
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
        f"{name(live, s)}: {signed(ledger[s])}" + (" 🏆" if s in past.winners else "")
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
        return _("This deal was not dealt from a committed seed: nothing proves its shuffle.")
    if row.attempt is None:  # format 1: a seed of its own, one cut
        cutter = (_("a member's press (its id, which no member can see)")
                  if row.cut_by is not None else _("the bot (random bytes)"))
        cuts = ", ".join(row.cuts or []) or _("none")
        if status == "verified":
            verdict = _("Its seed matches its commitment and gives this deck, but a format 1 "
                        "deal proves nothing against the bot.")
        elif status == "failed":
            verdict = _("Check FAILED: {reason}").format(reason="; ".join(
                f.get("reason", "") for f in item.get("failed", [])))
        else:
            verdict = _("Not verifiable: {detail}.").format(detail=item.get("detail", ""))
        return clip(_("Commitment `{commitment}`\nSeed `{seed}`\nCut `{cuts}` by {cutter}").format(
            commitment=row.commitment, seed=row.seed, cuts=cuts, cutter=cutter)
            + f"\n**{verdict}**")
    cut_by = item.get("cut_by") or []
    who = (", ".join(f"{name(live, c['seat'])} `{c['text']}`" for c in cut_by)
           if cut_by else _("nobody"))
    lines = [_("Attempt {attempt} · cut by {who}").format(attempt=row.attempt, who=who)]
    for b in burned:
        top = " ".join((b.get("deck") or [])[:9])
        lines.append(_("Burned before it: attempt {attempt} (a failed write)").format(
            attempt=b["attempt"]) + (_("; its deck would have begun {cards}").format(cards=top)
                                     if top else ""))
    if status == PROVEN:
        verdict = _("Proven: dealt from the game's seed and these cuts.")
    elif status == "not cut":
        verdict = _(proofs.NOT_CUT) + "."
    else:
        verdict = _("Check FAILED: {reason}").format(reason=item.get("detail", ""))
    lines.append(f"**{verdict}**")
    return clip("\n".join(lines))


def deal_embed(arch: Archived, number: int) -> discord.Embed:
    """Deal ``number`` of a game: dealer, how it ended, every hand at the end,
    the payments, and the deal's proof."""
    live = arch.live
    game = live.game
    assert game is not None
    deal = game.deals[number - 1]
    embed = discord.Embed(title=_("Table {number}").format(number=arch.past.number)
                          + f" · {arch.past.preset} · " + _("deal {number} of {total}").format(
                              number=number, total=len(game.deals)), colour=render.GOLD)
    actions = len(arch.deals[number - 1].actions)
    embed.description = (_("Dealer: {name}").format(name=name(live, deal.dealer)) + "\n"
                         + _("Ended: {how}").format(how=ended_text(live, deal)) + "\n"
                         + ngettext("{count} action: Replay shows it",
                                    "{count} actions: Replay shows each", actions).format(
                                        count=actions))
    sd = deal.showdown
    hands = sd.hands if sd is not None else tuple(tuple(h) for h in deal.hands)
    winner = sd.winner if sd is not None else None
    embed.add_field(name=_("Hands at the end"), inline=False, value=clip("\n".join(
        hand_line(live, deal, s, h) + (" 🏆" if s == winner else "")
        for s, h in enumerate(hands))))
    embed.add_field(name=_("Payments"), value=clip("\n".join(render.payment_lines(live, deal))))
    summary = verified(arch.record)
    item = summary["deals"][number - 1]
    burned = [b for b in summary.get("burned", []) if b["deal"] == number]
    embed.add_field(name=_("Proof of the shuffle"), inline=False,
                    value=proof_text(live, arch.deals[number - 1], item, burned))
    return embed


def deal_view(guild_id: int, arch: Archived, page: int, number: int) -> discord.ui.View:
    """Previous / Next deal, Replay, and back to the game."""
    table = arch.live.id
    total = len(arch.deals)
    return view_of(
        HistoryButton(guild_id, HistoryState("deal", page, table, max(number - 1, 1)), "prev",
                      _("Previous deal"), disabled=number <= 1),
        HistoryButton(guild_id, HistoryState("deal", page, table, min(number + 1, total)),
                      "next", _("Next deal"), disabled=number >= total),
        HistoryButton(guild_id, HistoryState("step", page, table, number, 0), "replay",
                      _("Replay")),
        HistoryButton(guild_id, HistoryState("game", page, table), "back", _("Back to the game")))


def changes(before: LiveTable, after: LiveTable) -> list[str]:
    """What each seat's hand lost and gained in one step (a deal that is over
    shows every card)."""
    assert before.deal is not None and after.deal is not None
    lines = []
    for seat, (old, new) in enumerate(zip(before.deal.hands, after.deal.hands, strict=True)):
        gave, got = [c for c in old if c not in new], [c for c in new if c not in old]
        if gave or got:
            lines.append(_("{name}: gave {gave}, got {got}").format(
                name=name(after, seat), gave=hand_label(gave) or _("nothing"),
                got=hand_label(got) or _("nothing")))
    return lines


def step_embed(arch: Archived, number: int, step: int, total: int) -> discord.Embed:
    """Deal ``number`` replayed up to ``step`` of its ``total`` actions: the
    public action, what it changed, and every hand as it was then."""
    at = arch.at_step(number, step)
    deal = at.deal
    assert deal is not None
    embed = discord.Embed(
        title=_("Table {number}").format(number=arch.past.number) + " · "
        + _("deal {number}").format(number=number) + " · "
        + _("step {step} of {total}").format(step=step, total=total),
        colour=render.GREEN if not deal.finished else render.GOLD)
    if step == 0:
        text = _("The cards are dealt. Dealer: {name}.").format(name=name(at, deal.dealer))
    else:
        text = render.event_text(at, deal.last_event)
        text += "".join(f"\n• {line}" for line in changes(arch.at_step(number, step - 1), at))
    if deal.finished:
        text += "\n" + _("**The deal is over:** {how}.").format(how=ended_text(at, deal))
    embed.description = clip(text, 4096)
    marks = {deal.to_act: "▶ "} if deal.to_act is not None and not deal.finished else {}
    embed.add_field(name=_("Hands"), inline=False, value=clip("\n".join(
        hand_line(at, deal, s, h, marks.get(s, "")) for s, h in enumerate(deal.hands))))
    for field, value in render.middle_fields(deal.observation(None)):
        embed.add_field(name=field, value=value)
    return embed


def step_view(guild_id: int, page: int, table: int, number: int, step: int,
              total: int) -> discord.ui.View:
    """Previous / Next step and back to the deal."""
    return view_of(
        HistoryButton(guild_id, HistoryState("step", page, table, number, max(step - 1, 0)),
                      "prev", _("Previous"), disabled=step <= 0),
        HistoryButton(guild_id, HistoryState("step", page, table, number, min(step + 1, total)),
                      "next", _("Next"), disabled=step >= total),
        HistoryButton(guild_id, HistoryState("deal", page, table, number), "back",
                      _("Back to the deal")))


def export_file(game: PastGame, record: dict[str, Any]) -> discord.File:
    """A game's record as ``commerce-table-<n>.json``: what ``python -m bot.engine
    replay`` and ``verify`` read (docs/RECORDS.md)."""
    data = json.dumps(record, indent=1).encode()
    return discord.File(io.BytesIO(data), filename=f"commerce-table-{game.number}.json")


EXPORT_TEXT = N_("The record of table {number} ({preset}): every deck, action and cut, and the "
               "game's seed. Check it with `python -m bot.engine verify "
               "commerce-table-{number}.json --commitment C --head H`, C from the table's "
               "fair-shuffle message and H from its final standings (exit 0: everything "
               "proven), or replay it with `python -m bot.engine replay`.")

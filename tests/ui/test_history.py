"""The history's pages (bot/ui/history.py), built from storage rows: a game's line says
its table, preset, date, deals, players and winners with names inert; a page of the
longest names keeps within Discord's limits, and its menu and buttons too."""

from __future__ import annotations

from bot.storage.models import PastGame
from bot.ui import history
from tests.ui.limits import embed_problems, view_problems

HOSTILE = "@everyone **[x](https://e.example)**"


def game(number: int, *, status: str = "finished", winners=(0,), players=None) -> PastGame:
    players = players or ["Ann", "Ben", "Bot"]
    members = [100 + i for i in range(len(players) - 1)] + [None]
    return PastGame(table_id=number, number=number, preset="foster", status=status,
                    players=players, members=members, winners=list(winners),
                    started_at="2026-03-01T09:00:00", finished_at="2026-03-01T10:00:00",
                    deals=1 if number == 1 else 3)


def test_a_games_line_says_what_was_played_and_who_won():
    assert history.game_line(game(1)) == (
        "**Table 1** · foster · 2026-03-01 · 1 deal\nAnn, Ben, 🤖 Bot — won by Ann")
    assert history.winners_text(game(2, winners=(0, 1))) == "shared by Ann, Ben"
    assert history.winners_text(game(3, status="closed", winners=())) == "closed before its end"


def test_a_page_of_the_longest_names_keeps_within_discords_limits():
    players = [HOSTILE + f" {i}" for i in range(11)] + ["AI"]
    games = [game(n, players=players, winners=range(11)) for n in range(1, history.PER_PAGE + 1)]
    embed = history.list_embed(games, 2, 45)
    assert embed_problems(embed) == []
    assert "@everyone" not in (embed.description or "")
    assert embed.footer.text == "Page 3 of 5 · 45 games · choose one to see its deals"
    view = history.list_view(1, games, 2, 45)
    assert view is not None and view_problems(view) == []
    rows = view.to_components()
    assert [c["label"] for c in rows[1]["components"]] == ["Previous", "Next"]
    assert len(rows[0]["components"][0]["options"]) == history.PER_PAGE


def test_an_empty_history_says_so_and_has_no_controls():
    embed = history.list_embed([], 0, 0)
    assert embed.description == "No game has finished on this server yet."
    assert embed.footer.text.startswith("Page 1 of 1 · 0 games")
    assert history.list_view(1, [], 0, 0) is None


def test_a_cut_text_says_it_was_cut():
    assert history.clip("x" * 1024) == "x" * 1024
    assert history.clip("x" * 1025) == "x" * 1023 + "…"
    assert len(history.clip("y" * 5000, 4096)) == 4096

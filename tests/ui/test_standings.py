"""The server's standings (bot/ui/standings.py), built from storage rows: ranks go on
from page to page, a member's name is shown inert beside the mention that alone
names them, and the leaderboard, the preset choices and ``/commerce stats`` keep
within Discord's limits whatever the names and however many presets."""

from __future__ import annotations

import datetime

from bot.engine import PRESETS
from bot.storage import MemberStats, PresetStats
from bot.storage.models import BestHand
from bot.ui import standings
from tests.ui.limits import embed_problems

NOW = datetime.datetime(2026, 3, 4, 12, 0, tzinfo=datetime.UTC)  # a Wednesday
HOSTILE = "@everyone **[x](https://evil.example)** <@&1>"


def test_ranks_go_on_from_page_to_page_and_the_footer_counts_the_pages():
    rows = [(100 + i, 50 - i) for i in range(10)]
    embed = standings.leaderboard_embed(rows, 2, 25, 10, now=NOW)
    lines = (embed.description or "").splitlines()
    assert lines[0] == "21. Member 100: +50" and lines[-1] == "30. Member 109: +41"
    assert embed.title == "Commerce leaderboard"
    assert embed.footer.text == "Page 3 of 3 · 25 players"


def test_a_board_of_a_preset_and_a_period_says_so_and_when_it_began():
    embed = standings.leaderboard_embed([(1, -3)], 0, 1, 10, preset="foster", period="week",
                                        now=NOW)
    assert embed.title == "Commerce leaderboard · foster, this week"
    assert embed.footer.text == ("Page 1 of 1 · 1 player · this week: since Monday 00:00 UTC "
                                 "(2026-03-02)")
    assert (embed.description or "") == "1. Member 1: −3"


def test_a_members_name_is_shown_once_and_inert():
    embed = standings.leaderboard_embed([(7, 1)], 0, 1, 10, now=NOW, known={7: HOSTILE})
    line = embed.description or ""
    assert line.startswith("1. ") and line.endswith(": +1") and "<@7>" not in line
    shown = line.removesuffix(": +1").removeprefix("1. ")
    assert "@everyone" not in shown and "<@&" not in shown and "https://" not in shown
    assert "**" not in shown.replace("\\*", "")


def test_the_leaderboard_names_each_member_once_without_a_raw_mention():
    rows = [(111111111111111111, 5), (222222222222222222, 3), (333333333333333333, -1),
            (444444444444444444, -7)]
    known = {111111111111111111: "ann", 222222222222222222: "Ann",
             333333333333333333: "ben"}  # the last one sat at no table this bot remembers
    embed = standings.leaderboard_embed(rows, 0, 4, 10, now=NOW, known=known)
    assert (embed.description or "").splitlines() == [
        "1. ann: +5", "2. Ann (2): +3", "3. ben: −1", "4. Member 4444: −7"]
    assert "<@" not in (embed.description or "")


def test_an_empty_board_names_what_it_counts():
    assert standings.empty_board(None, "all") == "Nobody has finished a deal on this server yet."
    assert standings.empty_board("widow", "month") == (
        "Nobody is on this server's leaderboard for widow, this month yet.")


def test_preset_choices_keep_within_discords_autocomplete_limits():
    names = sorted(PRESETS) * 5
    every = standings.preset_choices(names, "")
    assert 0 < len(every) <= 25
    assert all(1 <= len(c.name) <= 100 and c.value in PRESETS for c in every)
    assert {c.value for c in standings.preset_choices(sorted(PRESETS), " FOS")} == {
        "foster", "foster-more"}
    assert standings.preset_choices(["nonsense"], "") == []


def best(preset: str) -> BestHand:
    return BestHand(preset=preset, score=9, label="tricon of kings", category="tricon",
                    table_id=3, table_number=3, deal_number=2, finished_at="2026-03-01T10:00:00")


def test_stats_of_a_member_who_played_every_preset_keep_within_discords_limits():
    presets = [PresetStats(preset=name, knocks=4, knocks_won=2, deals=40, deals_won=12,
                           trades=30, barters=9, barters_accepted=4,
                           won_by_category={"tricon": 3, "sequence": 4, "pair": 5},
                           best=best(name))
               for name in sorted(PRESETS) * 8]
    stats = MemberStats(member_id=1, balance=-12, games=9, games_won=2, deals=320,
                        deals_won=96, best_score=9, best_label="tricon of kings",
                        won_by_category={"tricon": 24, "pair": 40}, presets=presets,
                        best=best("foster"))
    embed = standings.stats_embed(HOSTILE * 3, stats)
    assert embed_problems(embed) == []
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Balance"] == "−12"
    assert fields["Games"] == "9 played, 2 won"
    assert fields["Best hand"] == "tricon of kings — foster, table 3, deal 2, 2026-03-01"
    assert fields["Deals won, by hand"] == "tricon: 24 deals · pair: 40 deals"
    assert ("foster: 12 of 40 (tricon: 3 deals · sequence: 4 deals · pair: 5 deals)"
            in fields["Deals won, by preset"])
    assert "@everyone" not in (embed.title or "")


def test_deals_won_by_hand_count_deals_not_points():
    stats = MemberStats(member_id=1, balance=3, games=1, games_won=1, deals=3, deals_won=2,
                        best_score=9, best_label="point 21", won_by_category={"point": 1,
                                                                            "tricon": 1},
                        presets=[], best=None)
    field = next(f.value for f in standings.stats_embed("ann", stats).fields
                 if f.name == "Deals won, by hand")
    assert field == "point: 1 deal · tricon: 1 deal"
    assert "point 1" not in field


def test_stats_before_any_deal():
    stats = MemberStats(member_id=1, balance=0, games=0, games_won=0, deals=0, deals_won=0,
                        best_score=None, best_label=None)
    embed = standings.stats_embed("", stats)
    assert embed.title == "A member at Commerce"
    assert {f.name: f.value for f in embed.fields}["Best hand"] == "—"
    assert [f.name for f in embed.fields] == ["Balance", "Games", "Deals", "Best hand"]

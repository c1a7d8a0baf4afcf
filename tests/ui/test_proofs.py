"""The fair-shuffle texts (bot/ui/proofs.py) built from a table in memory: cuts are
listed by their cutter's inert name, a list too long for a message is summed up, and
a table without a shuffle log (dealt before fair shuffles) shows no proof."""

from __future__ import annotations

from bot.engine import Game, get_preset
from bot.ui import proofs, render
from tests.ui.test_words import live_table

HOSTILE = "@everyone **x**"


def table():
    return live_table(Game(get_preset("foster"), 3, 0), [HOSTILE, "Ben", "Bot"], humans=2)


def test_cuts_are_listed_by_their_cutters_inert_name():
    live = table()
    text = proofs.cut_list(live, [(0, "banana"), (1, "42")])
    assert text == "\\@\u200beveryone \\*\\*x\\*\\* `banana`, Ben `42`"
    assert proofs.cut_list(live, [(1, "42"), (0, "kiwi")], plain=True) == (
        f"Ben: 42 · {HOSTILE}: kiwi")


def test_a_list_of_cuts_too_long_for_a_message_is_summed_up():
    live = table()
    cuts = [(1, "x" * 40)] * 20
    text = proofs.cut_list(live, cuts)
    assert text == "20 players (their cuts are in /commerce history and the record)"
    assert len(proofs.cut_list(live, cuts[:3])) <= proofs.CUTS_SHOWN


def test_a_table_without_a_shuffle_log_shows_no_proof():
    live = table()
    live.game.start_deal(list(range(52)))
    embed = render.table_embed(live)
    before = (embed.footer.text, len(embed.fields))
    proofs.stamp_table_cuts(embed, live)
    assert (embed.footer.text, len(embed.fields)) == before
    assert proofs.deal_proof(live, 1) is None


def test_the_fair_shuffle_message_is_linked_once_posted():
    live = table()
    live.row.commitment_message_id = None
    assert proofs.message_link(live) is None
    live.row.commitment_message_id = 9
    assert proofs.message_link(live) == "https://discord.com/channels/4/5/9"

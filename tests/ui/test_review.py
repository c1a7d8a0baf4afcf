"""The review embed against hostile seat names and forged pages (bot/ui/review.py)."""

from __future__ import annotations

from bot.service import Review
from bot.storage import PastGame
from bot.storage.reviews import ReviewRow
from bot.ui import review as ui_review

HOSTILE = "**@everyone** [free](https://evil.example) ||x||"


def _review(lines: int = 1) -> Review:
    past = PastGame(table_id=7, number=3, preset="foster", status="finished",
                    players=["Ann", HOSTILE, "Cy"], members=[1, 2, None], winners=[0],
                    started_at="2026-12-03T10:00:00", finished_at="2026-12-03T11:00:00",
                    deals=1)
    line = {"deal": 1, "move": 0, "hand": ["Kh", "7s", "2d"],
            "did": {"kind": "offer", "card": "7s", "target": 1},
            "coach": {"kind": "offer", "card": "2d", "target": 1},
            "forced": False, "cost": 1.5}
    row = ReviewRow(7, 1, lines, 0, 1.5 * lines, [line] * lines)
    return Review(past, 0, row, [])


def test_an_offers_target_is_named_inert() -> None:
    text = ui_review.review_embed(_review(), 0).description or ""
    assert "Kh" not in text  # cards as labels, sanity
    assert "[free](https://evil.example)" not in text
    assert "**@everyone**" not in text
    assert "||x||" not in text


def test_a_forged_page_out_of_range_keeps_the_buttons_in_range() -> None:
    review = _review(lines=20)  # 3 pages
    view = ui_review.review_view(7, review, 9999)
    assert view is not None
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert ids == ["commerce:review:7:7:1:prev", "commerce:review:7:7:2:next"]

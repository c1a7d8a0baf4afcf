"""Help text helpers: preset suggestions are cut at a word, never mid-word."""

from __future__ import annotations

from bot.engine import PRESETS
from bot.ui.help import clip


def test_clip_cuts_at_a_word_boundary():
    assert clip("short text", 100) == "short text"
    text = "widow — three face-up cards in the middle; then each turn swap one card or knock"
    out = clip(text, 60)
    assert len(out) <= 60 and out.endswith("…")
    assert text.startswith(out[:-1]) and text[len(out) - 1] == " "


def test_every_preset_suggestion_fits_and_ends_on_a_word():
    for name, rules in PRESETS.items():
        full = f"{name} — {rules.summary}"
        label = clip(full, 100)
        assert len(label) <= 100
        if label.endswith("…"):
            kept = label[:-1]
            assert full.startswith(kept) and full[len(kept)] in " ,;:—-"

"""scripts/arena_table.py and ``run_arena(first=...)``: decks played in shards
into a checkpoint file give the figures of one run (docs/AI.md "Widow, oldway
and jaques")."""

from __future__ import annotations

import sys

from bot.engine.arena import run_arena

from .support import load_script


def _script():
    return load_script("arena_table")


def test_decks_numbered_from_first_are_the_same_decks():
    whole = run_arena("foster", ["threshold", "normal", "easy"], 3, 4)
    tail = run_arena("foster", ["threshold", "normal", "easy"], 2, 4, first=1)
    assert {p: v[1:] for p, v in whole.per_deck.items()} == tail.per_deck
    assert tail.per_deck != run_arena("foster", ["threshold", "normal", "easy"], 2, 4).per_deck


def test_shards_in_a_checkpoint_give_the_rows_of_one_run(monkeypatch, capsys, tmp_path):
    module = _script()
    job = "foster:strong,normal,easy:3"
    common = ["arena_table.py", "--seed", "4", "--playouts", "8"]
    monkeypatch.setattr(sys, "argv", [*common, job])
    module.main()
    plain = capsys.readouterr().out.splitlines()[-1]
    assert plain.startswith("| `foster` | `normal` | with easy | per deal | 3 |")
    for first in ("2", "0"):  # the second shard first; the first skips deck 2
        monkeypatch.setattr(sys, "argv", [*common, "--checkpoint", str(tmp_path), "--first",
                                          first, job])
        module.main()
    out = capsys.readouterr().out
    assert out.count(f"{job}: deck 2 (") == 1 and "decks 2\n" in out
    monkeypatch.setattr(sys, "argv", [*common, "--checkpoint", str(tmp_path), "--report", job])
    module.main()
    report = capsys.readouterr().out
    assert "decks 0-2" in report and report.splitlines()[-1] == plain
    assert module.spans([0, 1, 2, 5, 7, 8]) == "0-2, 5, 7-8"

"""The engine stays pure: no discord, no sqlite, no asyncio (README.md, "Layout")."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.engine

FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "asyncio"}
ENGINE_DIR = Path(bot.engine.__file__).parent


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            roots |= {a.value.split(".")[0] for a in node.args if isinstance(a, ast.Constant)}
    return roots


def test_engine_sources_exist():
    names = {p.name for p in ENGINE_DIR.glob("*.py")}
    assert {"cards.py", "hands.py", "trade.py", "game.py", "easy.py", "__main__.py"} <= names


def test_engine_imports_no_io_frameworks():
    offenders = {
        path.name: sorted(_imported_roots(path) & FORBIDDEN) for path in sorted(ENGINE_DIR.rglob("*.py"))
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_scanner_would_notice_a_forbidden_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import asyncio\nfrom discord.ext import commands\nimport os\n")
    assert _imported_roots(sample) & FORBIDDEN == {"asyncio", "discord"}

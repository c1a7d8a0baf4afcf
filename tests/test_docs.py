"""The repository stands alone: every rules citation names a section of docs/RULES.md,
and no file points at something outside the repository.

Code cites the rules as ``docs/RULES.md §N`` (or ``§N.M``; older text says ``docs/RULES.md §N``);
every section so cited must be a heading of docs/RULES.md. A Markdown file named anywhere
must exist in the repository (beside the file that names it, at the root, or in docs/), and
nothing may name a folder outside it or the source texts the rules were drawn from.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"

#: folders that are not the project's own text (tools, caches, local data)
SKIP_DIRS = {".git", ".venv", ".venv-shots", ".hypothesis", ".mypy_cache", ".pytest_cache", ".ruff_cache",
             "__pycache__", "build", "data", "backups"}
#: files never read: a local .env may hold a bot token; a worktree's .git file
#: names where its repository lies
SKIP_FILES = {".env", ".git"}

HEADING = re.compile(r"^#+\s+§(\d+(?:\.\d+)*)\b", re.MULTILINE)
CITATION = re.compile(r"RULES\.md")
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
#: where a citation's list of sections stops
CITATION_END = re.compile(r"[)\]`]|\n\s*\n|\"\"\"|\.\s")
#: (a name starts where a run of such characters starts: trying every point inside a
#: long run again took seconds, and finds nothing more)
MARKDOWN_NAME = re.compile(r"(?<![\w./-])[\w./-]*\w\.md\b")
#: paths and names that can only mean something outside the repository (written in
#: pieces so that this file does not match itself)
OUTSIDE = [
    re.compile(re.escape(".." + "/shared")),
    re.compile(re.escape("/work" + "/")),
    re.compile(r"\bshared" + "/"),
    re.compile(r"\bseeds" + "/"),
    re.compile(r"\bseeds?\s+0\d\d\b"),
]


def _text_files() -> list[Path]:
    files = []
    paths = []
    for folder, dirs, names in os.walk(ROOT):  # the skipped folders are not entered
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        paths += [Path(folder) / name for name in names]
    for path in sorted(paths):
        if not path.is_file() or path.name in SKIP_FILES:
            continue
        try:
            path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):  # images and other binary files
            continue
        files.append(path)
    return files


def _line(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def rules_sections() -> set[str]:
    """Every section number of docs/RULES.md (``"1"``, ``"2.6"``...)."""
    return set(HEADING.findall(RULES.read_text(encoding="utf-8")))


def cited_sections(text: str) -> list[tuple[int, str]]:
    """``(line, section)`` for every section cited after a ``RULES.md`` in ``text``:
    ``docs/RULES.md §1 "Hands", §2`` cites 1 and 2; the list ends at a closing bracket, a
    sentence end or a blank line."""
    out = []
    for match in CITATION.finditer(text):
        tail = text[match.end():match.end() + 200]
        end = CITATION_END.search(tail)
        tail = tail if end is None else tail[:end.start()]
        for section in SECTION.finditer(tail):
            out.append((_line(text, match.end() + section.start()), section.group(1)))
    return out


def test_rules_has_its_four_sections_each_once():
    text = RULES.read_text(encoding="utf-8")
    numbers = HEADING.findall(text)
    assert len(numbers) == len(set(numbers)), "a section number is used twice"
    assert {"1", "2", "3", "4"} <= set(numbers)
    for number in numbers:  # a subsection lives under its section
        if "." in number:
            assert number.rsplit(".", 1)[0] in numbers, number


def test_cited_sections_are_found_in_citations():
    text = 'chips (docs/RULES.md §1 "Game length", §2, §3\n"Game records"; see it)'
    assert [s for _, s in cited_sections(text)] == ["1", "2", "3"]
    assert [s for _, s in cited_sections("(docs/RULES.md §2.6) and §9 later")] == ["2.6"]
    assert [s for _, s in cited_sections("following docs/RULES.md §1/§2: card i")] == ["1", "2"]


def test_every_rules_citation_names_a_section_of_docs_rules():
    sections = rules_sections()
    missing = []
    for path in _text_files():
        text = path.read_text(encoding="utf-8")
        for line, section in cited_sections(text):
            if section not in sections:
                missing.append(f"{path.relative_to(ROOT)}:{line}: §{section}")
    assert not missing, "citations of sections docs/RULES.md does not have:\n" + "\n".join(missing)


def _resolves(path: Path, name: str) -> bool:
    candidates = [path.parent / name, ROOT / name, ROOT / "docs" / Path(name).name]
    return any(c.resolve().is_file() and ROOT in c.resolve().parents for c in candidates)


def test_no_file_cites_a_path_outside_the_repository():
    outside = []
    for path in _text_files():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT)
        for pattern in OUTSIDE:
            for match in pattern.finditer(text):
                outside.append(f"{rel}:{_line(text, match.start())}: {match.group(0)!r}")
        for match in MARKDOWN_NAME.finditer(text):
            start = text.rfind(" ", 0, match.start()) + 1
            if "://" in text[start:match.end()]:  # a web address, not a file of ours
                continue
            if not _resolves(path, match.group(0)):
                outside.append(f"{rel}:{_line(text, match.start())}: {match.group(0)} "
                               "(no such file in the repository)")
    assert not outside, "references to things outside the repository:\n" + "\n".join(outside)

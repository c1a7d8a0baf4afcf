"""Babel's extraction method for the bot's sources (``babel.cfg``): the messages of
``_`` / ``N_`` / ``ngettext`` / ``pgettext`` as Babel's Python extractor finds them,
and the words of the slash commands declared in the cogs (``name=``,
``description=``, ``group_name=``, ``group_description=``, ``describe(...)``: the
option's name and description, and
``Choice(name=...)``), names in the ``NAME_CONTEXT``, so that the command tree's
catalog entries stay in step with the code (``scripts/catalog``).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import extract_python

from . import NAME_CONTEXT

#: the calls (and class statements) that declare a command, a group or a choice
DECLARING = frozenset({"command", "Group", "class", "Choice", "describe"})
#: keyword arguments of the command decorators that hold a name, and a description
NAME_ARGS = frozenset({"name", "group_name"})
TEXT_ARGS = frozenset({"description", "group_description"})


def _text(node: ast.expr) -> str | None:
    """The string a constant expression (implicit concatenation included) holds."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _engine_words(call: ast.Call, callee: str) -> Iterator[tuple[int, str, Any, list[str]]]:
    """The engine's words a member reads (bot/engine/rules.py): a table option's text
    and its choices' labels (``Option(name, kind, text, values=...)``) and a preset's
    ``summary=``; the UI translates them where it shows them."""
    if callee == "Option" and len(call.args) > 2 and (text := _text(call.args[2])):
        if name := _text(call.args[0]):  # the option of /commerce new of that name
            yield call.lineno, "pgettext", (NAME_CONTEXT, name), []
        yield call.lineno, "gettext", text, []
        for keyword in call.keywords:
            if keyword.arg == "values" and isinstance(keyword.value, ast.Tuple):
                for pair in keyword.value.elts:
                    if isinstance(pair, ast.Tuple) and (label := _text(pair.elts[-1])):
                        yield call.lineno, "gettext", label, []
    for keyword in call.keywords:
        if keyword.arg == "summary" and (text := _text(keyword.value)):
            yield call.lineno, "gettext", text, []


def _command_words(call: ast.Call) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel's tuples for the words of one decorator or ``Choice`` call."""
    func = call.func
    callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    yield from _engine_words(call, callee)
    if callee not in DECLARING:
        return
    for keyword in call.keywords:
        text = _text(keyword.value)
        if text is None or keyword.arg is None:
            continue
        if callee == "describe":  # an option's name, and its description
            yield call.lineno, "pgettext", (NAME_CONTEXT, keyword.arg), []
            yield call.lineno, "gettext", text, []
        elif keyword.arg in NAME_ARGS and callee != "Choice":
            yield call.lineno, "pgettext", (NAME_CONTEXT, text), []
        elif keyword.arg in TEXT_ARGS or (keyword.arg == "name" and callee == "Choice"):
            yield call.lineno, "gettext", text, []


def extract_commerce(fileobj: IO[bytes], keywords: Mapping[str, Any],
                     comment_tags: Collection[str], options: Mapping[str, Any],
                     ) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel's extraction method (``babel.cfg``): ``extract_python``'s messages, then
    the command tree's words found in ``ast.Call`` nodes (a class's keywords too)."""
    source = fileobj.read()
    fileobj.seek(0)
    yield from extract_python(fileobj, keywords, comment_tags,  # type: ignore[misc]
                              options)  # type: ignore[arg-type]
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield from _command_words(node)
        elif isinstance(node, ast.ClassDef):
            fake = ast.Call(func=ast.Name(id="class"), args=[], keywords=node.keywords)
            fake.lineno = node.lineno
            yield from _command_words(fake)

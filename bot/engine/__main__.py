"""``python -m bot.engine replay FILE|-``: replay a game record (docs/RULES.md §3).

Prints one JSON object and exits 0, or prints ``{"error": ...}`` and exits 2.

``python -m bot.engine verify FILE|- [--commitment HEX] [--head HEX]``: check
what a record proves about its shuffle (docs/FAIRNESS.md "Verifying a record");
``--commitment`` and ``--head`` are the values the table channel showed (the
fair-shuffle message, the final standings). Prints a JSON summary and exits 0
only when every check is proven, else 2.

``python -m bot.engine arena --preset P --policies strong,normal,easy --deals N
--seed S``: duplicate deals between AI levels (docs/AI.md, ``arena.py``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

from .game import RecordError, replay
from .proof import verify_record

USAGE = ("usage: python -m bot.engine replay FILE|-\n"
         "       python -m bot.engine verify FILE|- [--commitment HEX] [--head HEX]\n"
         "       python -m bot.engine arena [--preset P --policies A,B,C --deals N --seed S]")
#: the options of ``verify``: the values the table channel showed
VERIFY_OPTIONS = ("--commitment", "--head")
#: the subcommands that read one record
RECORD_COMMANDS = ("replay", "verify")


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "arena":
        from .arena import main as arena_main

        return arena_main(args[1:])
    shown: dict[str, str] = {}
    if args and args[0] == "verify":
        args, shown = _options(args)
    if len(args) != 2 or args[0] not in RECORD_COMMANDS or shown.get("") is not None:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        if args[1] == "-":
            text = sys.stdin.read()
        else:
            with open(args[1], encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        return _refused(RecordError(f"cannot read {args[1]}: {exc.strerror}"))
    except UnicodeDecodeError:
        return _refused(RecordError("not valid JSON: the text is not UTF-8"))
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _refused(RecordError(f"not valid JSON: {exc}"))
    except RecursionError:
        return _refused(RecordError("not valid JSON: nested too deeply"))
    if args[0] == "verify":
        return verify(record, shown.get("--commitment"), shown.get("--head"))
    return _answer("replay", lambda: (replay(record).summary(), True))


def _refused(error: RecordError) -> int:
    """Print ``error`` (``{"error": ...}``); the exit code, 2."""
    print(json.dumps(error.to_dict()))
    return 2


def _answer(doing: str, work: Callable[[], tuple[object, bool]]) -> int:
    """Print the summary ``work`` returns (JSON); the exit code: 0 when it says the
    record passed, else 2. A failure is printed as a ``RecordError`` (any other
    exception as ``cannot <doing>: <its type>``: the CLI never shows a traceback)."""
    try:
        summary, passed = work()
    except RecordError as exc:
        return _refused(exc)
    except Exception as exc:  # the CLI never shows a traceback
        return _refused(RecordError(f"cannot {doing}: {type(exc).__name__}"))
    print(json.dumps(summary))
    return 0 if passed else 2


def _options(args: list[str]) -> tuple[list[str], dict[str, str]]:
    """``verify``'s arguments without its options, and the options' values
    (``""`` -> something that is not an option, or an option without its value)."""
    rest, shown = [], {}
    items = iter(args)
    for arg in items:
        if arg in VERIFY_OPTIONS:
            value = next(items, None)
            if value is None or arg in shown:
                shown[""] = arg
            else:
                shown[arg] = value
        elif arg.startswith("--"):
            shown[""] = arg
        else:
            rest.append(arg)
    return rest, shown


def verify(record: object, commitment: str | None = None, head: str | None = None) -> int:
    """Print the ``verify_record`` summary (or the replay error) of ``record``,
    compared with the ``commitment`` and ``head`` the table channel showed; the
    exit code."""
    def check() -> tuple[object, bool]:
        ok, summary = verify_record(record, commitment_shown=commitment, head_shown=head)
        return summary, ok

    return _answer("verify", check)


if __name__ == "__main__":
    sys.exit(main())

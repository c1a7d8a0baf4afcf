"""``python -m bot.engine replay FILE|-``: replay a game record (docs/RULES.md §3).

Prints one JSON object and exits 0, or prints ``{"error": ...}`` and exits 2.

``python -m bot.engine verify FILE|-``: check the fair deals of a record
(docs/FAIRNESS.md); prints a JSON summary and exits 0 only when every deal is
verified, else 2.

``python -m bot.engine arena --preset P --policies strong,normal,easy --deals N
--seed S``: duplicate deals between AI levels (docs/AI.md, ``arena.py``).
"""

from __future__ import annotations

import json
import sys

from .game import RecordError, replay, verify_record

USAGE = ("usage: python -m bot.engine replay FILE|-\n       python -m bot.engine verify FILE|-"
         "\n       python -m bot.engine arena [--preset P --policies A,B,C --deals N --seed S]")
#: the subcommands that read one record
RECORD_COMMANDS = ("replay", "verify")


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "arena":
        from .arena import main as arena_main

        return arena_main(args[1:])
    if len(args) != 2 or args[0] not in RECORD_COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        if args[1] == "-":
            text = sys.stdin.read()
        else:
            with open(args[1], encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(json.dumps(RecordError(f"cannot read {args[1]}: {exc.strerror}").to_dict()))
        return 2
    except UnicodeDecodeError:
        print(json.dumps(RecordError("not valid JSON: the text is not UTF-8").to_dict()))
        return 2
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        print(json.dumps(RecordError(f"not valid JSON: {exc}").to_dict()))
        return 2
    except RecursionError:
        print(json.dumps(RecordError("not valid JSON: nested too deeply").to_dict()))
        return 2
    if args[0] == "verify":
        return verify(record)
    try:
        game = replay(record)
    except RecordError as exc:
        print(json.dumps(exc.to_dict()))
        return 2
    except Exception as exc:  # the CLI never shows a traceback
        print(json.dumps(RecordError(f"cannot replay: {type(exc).__name__}").to_dict()))
        return 2
    print(json.dumps(game.summary()))
    return 0


def verify(record: object) -> int:
    """Print the ``verify_record`` summary (or the replay error); the exit code."""
    try:
        ok, summary = verify_record(record)
    except RecordError as exc:
        print(json.dumps(exc.to_dict()))
        return 2
    except Exception as exc:  # the CLI never shows a traceback
        print(json.dumps(RecordError(f"cannot verify: {type(exc).__name__}").to_dict()))
        return 2
    print(json.dumps(summary))
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())

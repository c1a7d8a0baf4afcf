"""Members' names as the bot shows them: readable, unmistakable and inert.

Names and nicknames are text chosen by members (docs/RELIABILITY.md "Hostile
names"). Storage and game records keep them exactly as they were; everything
the bot shows goes through this module:

- ``readable``: what a name looks like once the characters that hide, reorder or
  blank text are gone (bidirectional overrides and isolates, zero-width and other
  invisible characters, controls, stacks of combining marks), cut to Discord's 32
  characters; it may be empty.
- ``seat_labels``: the name of every seat of a table as plain text (pictures,
  button and menu labels): never blank (``Player 3``), an AI seat marked with
  ``AI_MARK``, which no member's name can carry, and two names that look alike
  (Unicode's confusable characters: Latin, Cyrillic, Greek, Cherokee... look-alikes,
  full-width forms, case) told apart by a number (``Ada`` and ``Ada (2)``).
- ``board_labels``: the members a leaderboard lists, each by name once, told
  apart the same way and made inert (``markdown_safe``).
- ``markdown_safe``: a plain label made inert for Discord's markdown (message
  contents, embed descriptions and fields): no bold, spoiler, code, heading,
  quote, masked or bare link, custom emoji, timestamp or mention survives; and a
  right-to-left name isolated (``isolated``), so that it reorders nothing after it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Protocol

from confusable_homoglyphs import utils as confusable_utils  # type: ignore[import-untyped]

from ..i18n import _, pgettext

#: the mark of an AI seat; taken out of every member's name
AI_MARK = "🤖"
#: Discord's longest display name or nickname
MAX_NAME = 32
#: combining marks kept on one base character (more is "zalgo" text)
MAX_MARKS = 2
#: characters that are not letters but show nothing, or look like a space, that
#: members use for blank or look-alike names (beyond the Unicode ``Cf`` category)
_INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u2800"  # braille blank
    "\u034f"  # combining grapheme joiner
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u180e"  # Mongolian vowel separator
)
#: joiners that emoji sequences and some scripts need between two visible characters
_JOINERS = frozenset("\u200c\u200d")
#: the ASCII punctuation Discord's markdown gives a meaning to (emphasis, spoilers,
#: code, headings, quotes, lists, links, emoji, timestamps, mentions); a backslash
#: before one shows it as it is
_MARKDOWN = frozenset("\\*_~|`>#-+.[]<:@")
_SCHEME = re.compile(r"(?i)([a-z][a-z0-9+.-]*):(?=//)")


class Seated(Protocol):
    """What ``seat_labels`` reads of a seat (``bot.storage.SeatRow`` has it)."""

    @property
    def name(self) -> str:
        """The name stored for the seat (a member's display name, or the AI's)."""

    @property
    def member_id(self) -> int | None:
        """The member in the seat, ``None`` for an AI seat."""


def readable(raw: str) -> str:
    """``raw`` without what hides, reorders or blanks text: format characters
    (bidirectional controls, zero-width spaces, word joiners...), controls,
    invisible fillers, more than ``MAX_MARKS`` combining marks on one character;
    zero-width joiners stay only between two visible characters (emoji
    sequences). Runs of spaces become one; the result is stripped and cut to
    ``MAX_NAME`` characters (whole characters, never half a pair), and may be
    empty."""
    text = unicodedata.normalize("NFC", raw)
    out: list[str] = []
    marks = 0
    for index, ch in enumerate(text):
        category = unicodedata.category(ch)
        if ch in _JOINERS:
            after = text[index + 1] if index + 1 < len(text) else ""
            if out and not out[-1].isspace() and after and not after.isspace():
                out.append(ch)
            continue
        if category in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp") or ch in _INVISIBLE:
            if category == "Cc" and ch in "\t\n\r":
                out.append(" ")
            continue
        if category.startswith("M"):
            if not out or out[-1] == " " or marks >= MAX_MARKS:
                continue  # a mark on nothing (a space, a removed character) or one too many
            marks += 1
        else:
            marks = 0
        out.append(" " if category == "Zs" else ch)
    cleaned = re.sub(r" {2,}", " ", "".join(out)).strip()
    cleaned = cleaned[:MAX_NAME].rstrip()
    return cleaned if any(_visible(ch) for ch in cleaned) else ""


def _visible(ch: str) -> bool:
    """Whether ``ch`` shows something by itself (not a space, mark or format)."""
    return unicodedata.category(ch)[0] not in "ZMC" and ch not in _JOINERS


@functools.cache
def _homoglyphs() -> dict[str, list[str]]:
    """Unicode's confusable characters (``confusable_homoglyphs``' copy of the
    Unicode data): character -> the single characters that look like it."""
    table: dict[str, list[dict[str, str]]] = confusable_utils.load("confusables.json")
    return {ch: [g for g in (h["c"].strip("\u200e\u200f") for h in entry) if len(g) == 1]
            for ch, entry in table.items() if len(ch) == 1}


@functools.lru_cache(maxsize=8192)
def _prototype(ch: str) -> str:
    """One character standing for every character that looks like ``ch``: the
    smallest ASCII letter or digit of its look-alikes (taken transitively: I, l,
    1 and | are one), else the smallest of them."""
    table = _homoglyphs()
    seen, queue = {ch}, [ch]
    while queue and len(seen) < 64:
        for other in table.get(queue.pop(), ()):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    plain = [c for c in seen if c.isascii() and c.isalnum()]
    return min(plain) if plain else min(seen)


def skeleton(label: str) -> str:
    """What a name looks like, for telling look-alikes apart: compatibility
    forms folded (full-width letters), accents dropped, every character replaced
    by the one standing for its look-alikes (Cyrillic Р and Greek Ρ read as P,
    Cherokee Ꭺ as A, I as l), case folded, spaces dropped."""
    folded = unicodedata.normalize("NFKD", label)
    bare = "".join(ch for ch in folded if not unicodedata.category(ch).startswith("M"))
    return re.sub(r"\s+", "", "".join(_prototype(ch) for ch in bare).casefold())


def member_label(raw: str) -> str:
    """A member's name as a plain label: ``readable``, without the AI mark (and
    what would dress it: a variation selector or joiner then has nothing to
    dress, and goes)."""
    return readable(raw.replace(AI_MARK, " "))


def board_labels(members: Sequence[int], known: dict[int, str]) -> dict[int, str]:
    """Each of ``members`` (ids, in board order) by name, once and inert, as a
    board lists them: ``member_label`` of its name in ``known`` (else ``Member
    <last 4 digits of its id>``), a name that looks like an earlier one's
    followed by `` (2)``, `` (3)``..., made inert (``markdown_safe``)."""
    labels: dict[int, str] = {}
    taken: set[str] = set()
    for member in members:
        base = member_label(known.get(member, "")) or _("Member {tail}").format(
            tail=str(member)[-4:])
        label, count = base, 1
        while skeleton(label) in taken:
            count += 1
            label = f"{base} ({count})"
        taken.add(skeleton(label))
        labels[member] = markdown_safe(label)
    return labels


def seat_labels(seats: Sequence[Seated], ai_levels: Sequence[str | None] = ()) -> list[str]:
    """Every seat's name as plain text, in seat order: a member's ``member_label``
    (``Player <n>`` when nothing readable is left), an AI seat's name after
    ``AI_MARK`` (``ai_name``; with its level when given and not the default
    ``easy``), all in the current language, and a
    name that looks like an earlier seat's (same ``skeleton``) followed by
    `` (2)``, `` (3)``... so that no two seats look alike."""
    labels: list[str] = []
    taken: set[str] = set()
    for index, seat in enumerate(seats):
        if seat.member_id is None:
            level = ai_levels[index] if index < len(ai_levels) else None
            base = f"{AI_MARK} {ai_name(seat.name)}"
            if level not in (None, "easy"):
                base += f" ({level_word(level)})"
        else:
            base = member_label(seat.name) or _("Player {number}").format(number=index + 1)
        label, count = base, 1
        while skeleton(label) in taken:
            count += 1
            label = f"{base} ({count})"
        taken.add(skeleton(label))
        labels.append(label)
    return labels


def ai_name(stored: str) -> str:
    """An AI seat's stored name (``AI Ada``: the bot gives every AI seat one) as
    read in the current language: its leading ``AI`` worded there (``KI Ada``),
    the rest ``readable``; a name without that word is only made readable."""
    name = readable(stored)
    if name == "AI" or not name:
        return _("AI")
    if name.startswith("AI "):
        return f"{_('AI')} {name[3:]}"
    return name


def level_word(level: str) -> str:
    """An AI level's name (``easy``, ``normal``, ``strong``: docs/AI.md) in the
    current language; an unknown one as it is."""
    words = {"easy": pgettext("AI level", "easy"), "normal": pgettext("AI level", "normal"),
             "strong": pgettext("AI level", "strong")}
    return words.get(level, level)


@functools.lru_cache(maxsize=4096)
def markdown_safe(text: str) -> str:
    """``text`` (a plain label) made inert where Discord renders markdown: each
    character markdown gives a meaning to escaped with a backslash (no bold, italics,
    spoilers, code, headings, quotes, lists, masked links, custom emoji,
    timestamps or mentions), ``@everyone`` / ``@here`` broken, and a link's
    ``scheme://`` broken so that it is not clickable. A label holding
    right-to-left letters (Arabic, Hebrew...) is isolated (``isolated``), so that
    what follows it (``: −6``) is not drawn into it and reordered."""
    text = _SCHEME.sub(lambda m: m.group(1) + ":\u200b", text)
    escaped = "".join("\\" + ch if ch in _MARKDOWN else ch for ch in text)
    return isolated(escaped.replace("@", "@\u200b"))


#: Unicode's bidirectional classes of right-to-left letters
_RIGHT_TO_LEFT = frozenset({"R", "AL"})


def isolated(label: str) -> str:
    """``label`` between a first-strong isolate and its pop (U+2068, U+2069) when
    it holds a right-to-left letter: shown in its own direction, without
    reordering the text around it (a score after it, the punctuation between
    two names). Other labels are returned as they are. ``readable`` takes every
    isolate out of a member's name, so no name can close this one early."""
    if any(unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in label):
        return f"\u2068{label}\u2069"
    return label

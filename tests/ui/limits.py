"""Discord's payload limits (the figures of Discord's developer documentation on
messages, embeds and components), checked on what the UI builders return, so that a
builder's unit test fails where Discord would answer 400 Invalid Form Body."""

from __future__ import annotations

from typing import Any

import discord

CONTENT = 2000
EMBED_TOTAL = 6000
TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
ROWS = 5
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150


def embed_problems(embed: discord.Embed) -> list[str]:
    """Every way ``embed`` breaks Discord's limits (empty: none)."""
    found = []
    if len(embed) > EMBED_TOTAL:
        found.append(f"{len(embed)} characters in all")
    if len(embed.title or "") > TITLE:
        found.append("title")
    if len(embed.description or "") > DESCRIPTION:
        found.append("description")
    if len(embed.fields) > FIELDS:
        found.append(f"{len(embed.fields)} fields")
    for f in embed.fields:
        if not f.name or len(f.name) > FIELD_NAME:
            found.append(f"field name {f.name!r}")
        if not f.value or len(f.value) > FIELD_VALUE:
            found.append(f"field {f.name!r}: {len(f.value or '')} characters")
    if embed.footer and len(embed.footer.text or "") > FOOTER:
        found.append("footer")
    return found


def view_problems(view: discord.ui.View) -> list[str]:
    """Every way ``view``'s components break Discord's limits (empty: none)."""
    rows: list[dict[str, Any]] = view.to_components()
    found = []
    if len(rows) > ROWS:
        found.append(f"{len(rows)} rows")
    ids = []
    for row in rows:
        items = row["components"]
        selects = [c for c in items if c["type"] != 2]
        if selects and len(items) > 1:
            found.append("a select shares its row")
        if len(items) > BUTTONS_PER_ROW:
            found.append(f"{len(items)} buttons in a row")
        for c in items:
            if "custom_id" in c:
                ids.append(c["custom_id"])
                if len(c["custom_id"]) > CUSTOM_ID:
                    found.append(f"custom_id {c['custom_id']!r}")
            if c["type"] == 2 and not 0 < len(c.get("label") or "") <= BUTTON_LABEL:
                found.append(f"button label {c.get('label')!r}")
            if c["type"] == 3:
                found += select_problems(c)
    if len(ids) != len(set(ids)):
        found.append("custom_ids repeat")
    return found


def select_problems(select: dict[str, Any]) -> list[str]:
    """Every way a select menu's payload breaks Discord's limits."""
    options = select.get("options", [])
    found = [] if 0 < len(options) <= OPTIONS else [f"{len(options)} options"]
    found += [f"option {o['label']!r}" for o in options
              if not 0 < len(o["label"]) <= OPTION_TEXT or len(o["value"]) > OPTION_TEXT]
    if len(select.get("placeholder") or "") > PLACEHOLDER:
        found.append("placeholder")
    return found

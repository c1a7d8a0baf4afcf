"""A member's own settings (bot/storage/members.py, migration 0013) on SQLite and
PostgreSQL: the deck is the default until chosen, kept per guild and member,
changed in place, and an unknown deck is refused by the storage and by the table's
CHECK alike."""

from __future__ import annotations

import pytest

from bot.storage import AnyStorage
from tests.storage.backends import Backend

GUILD, OTHER, ANN, BEN = 10, 11, 1001, 1002


async def test_a_member_s_deck_is_kept_per_guild_and_checked(store: AnyStorage,
                                                              backend: Backend) -> None:
    assert await store.member_deck(GUILD, ANN) == "two"
    await store.set_member_deck(GUILD, ANN, "four")
    assert await store.member_deck(GUILD, ANN) == "four"
    assert await store.member_deck(OTHER, ANN) == "two"  # another guild: its own
    assert await store.member_deck(GUILD, BEN) == "two"  # another member: theirs
    await store.set_member_deck(GUILD, ANN, "two")  # changed in place, one row
    assert await store.member_deck(GUILD, ANN) == "two"
    with pytest.raises(ValueError, match="deck"):
        await store.set_member_deck(GUILD, ANN, "five")
    assert await store.member_deck(GUILD, ANN) == "two"
    assert await backend.rows("SELECT guild_id, member_id, deck FROM member_settings") == [
        (GUILD, ANN, "two")]
    with pytest.raises(backend.integrity):
        await backend.execute("INSERT INTO member_settings (guild_id, member_id, deck, updated_at)"
                              " VALUES (?, ?, 'five', 'now')", (GUILD, BEN))

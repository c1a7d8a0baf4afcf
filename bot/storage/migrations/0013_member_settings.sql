-- 0013: a member's own settings in a guild (issue 23 §2; bot/i18n/deck.py): the deck their
-- private pictures and texts use, 'two' (the server's default: black spades and clubs, red
-- hearts and diamonds) or 'four' (spades black, hearts red, diamonds blue, clubs green).
-- A member without a row has the defaults.
CREATE TABLE member_settings (
    guild_id   INTEGER NOT NULL,
    member_id  INTEGER NOT NULL,
    deck       TEXT    NOT NULL DEFAULT 'two' CHECK (deck IN ('two', 'four')),
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, member_id)
);

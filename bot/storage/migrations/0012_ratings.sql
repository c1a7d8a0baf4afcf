-- 0012: skill ratings and seasons (issue 24; docs/RATINGS.md).
-- seasons: the seasons a guild's admins started (/commerce-admin season). Season 1 has no
-- row: it runs from the guild's first game until season 2 begins. ledger_after: the
-- highest ledger id when the season began; the season's points are the guild's ledger rows
-- after it (and up to the next season's ledger_after).
CREATE TABLE seasons (
    guild_id     INTEGER NOT NULL,
    number       INTEGER NOT NULL CHECK (number >= 2),
    started_at   TEXT    NOT NULL,
    started_by   INTEGER,
    ledger_after INTEGER NOT NULL CHECK (ledger_after >= 0),
    PRIMARY KEY (guild_id, number)
);

-- ratings: a player's skill (OpenSkill's Plackett-Luce model: mu and sigma) per guild,
-- season and preset, after `games` rated games. A member is member_id with ai_level '';
-- an AI level is member_id 0 with its level ('easy', 'normal', 'strong').
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 1),
    preset     TEXT    NOT NULL,
    member_id  INTEGER NOT NULL,
    ai_level   TEXT    NOT NULL DEFAULT '' CHECK (ai_level IN ('', 'easy', 'normal', 'strong')),
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    games      INTEGER NOT NULL CHECK (games >= 1),
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, season, preset, member_id, ai_level)
);

-- rated_games: each finished game whose seats' ratings were updated, once (its row and
-- the updates are written in the transaction that finishes the game).
CREATE TABLE rated_games (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id),
    guild_id INTEGER NOT NULL,
    season   INTEGER NOT NULL CHECK (season >= 1),
    preset   TEXT    NOT NULL,
    rated_at TEXT    NOT NULL
);

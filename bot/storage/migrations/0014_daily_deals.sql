-- 0014: the daily deal, played in duplicate (issue 24; docs/DAILY.md, docs/FAIRNESS.md
-- "The daily deal").
-- daily_seeds: one secret seed per UTC day (day: days from 1970-01-01), drawn from the OS
-- CSPRNG ahead of the day; its commitment (SHA-256, hex) is public from the day before,
-- the seed only once the day is over. Written once, never changed.
CREATE TABLE daily_seeds (
    day        INTEGER PRIMARY KEY CHECK (day >= 0),
    seed       TEXT    NOT NULL CHECK (length(seed) = 64),
    commitment TEXT    NOT NULL CHECK (length(commitment) = 64),
    created_at TEXT    NOT NULL
);

-- daily_plays: a member's one game of a day's deal in a guild. moves: the member's own
-- operations (JSON list of the action log's objects; the AI seats' answers follow from
-- them), seq: how many; result: the member's points once the deal is over (NULL while it
-- runs). The row is written when the game begins, so nobody plays a day twice.
CREATE TABLE daily_plays (
    guild_id    INTEGER NOT NULL,
    day         INTEGER NOT NULL REFERENCES daily_seeds (day),
    member_id   INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    moves       TEXT    NOT NULL DEFAULT '[]',
    seq         INTEGER NOT NULL DEFAULT 0 CHECK (seq >= 0),
    result      INTEGER,
    started_at  TEXT    NOT NULL,
    finished_at TEXT,
    PRIMARY KEY (guild_id, day, member_id)
);

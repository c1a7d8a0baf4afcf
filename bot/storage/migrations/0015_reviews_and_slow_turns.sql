-- 0015: the coach's review of a finished game, and turn timers of hours (issue 24 §3, §4).

-- reviews: a member's review of a game that is over (docs/AI.md "Review"), computed once,
-- on the member's first request: its figures (decisions with a choice, how many agreed
-- with the coach, the expected points given up) make the member's trend cheap, and its
-- lines (JSON, the member's own decisions only) make its pages cheap.
CREATE TABLE reviews (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    member_id  INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    decisions  INTEGER NOT NULL CHECK (decisions >= 0),
    agreed     INTEGER NOT NULL CHECK (agreed >= 0 AND agreed <= decisions),
    cost       REAL    NOT NULL CHECK (cost >= 0),
    lines      TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (table_id, member_id)
);
CREATE INDEX reviews_member ON reviews (guild_id, member_id, table_id);

-- turn_moments: when a member was first given a turn (a table's deal, at an operation
-- count) whose timer runs, and when they were reminded to act: a turn timer of hours keeps
-- its deadline through a restart, and its reminder is sent once (docs/RELIABILITY.md).
CREATE TABLE turn_moments (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    deal        INTEGER NOT NULL CHECK (deal >= 1),
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    started_at  TEXT    NOT NULL,
    reminded_at TEXT,
    PRIMARY KEY (table_id, deal, seq)
);

-- 0001: the initial Commerce schema.
-- Applied in one transaction by Storage.open (SQLite) or pg_migrate.migrate (PostgreSQL,
-- rendered in its dialect by pg_migrate.postgres_dialect); schema_version is maintained
-- by the runner.
-- Timestamps are ISO 8601 UTC text; options, payloads and winners are JSON text.

CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    table_mode      TEXT    NOT NULL DEFAULT 'channel'
                    CHECK (table_mode IN ('channel', 'thread', 'here')),
    turn_timer      INTEGER NOT NULL DEFAULT 120 CHECK (turn_timer >= 0),
    default_preset  TEXT    NOT NULL DEFAULT 'foster',
    next_deal_delay INTEGER NOT NULL DEFAULT 30 CHECK (next_deal_delay >= 0),
    updated_at      TEXT    NOT NULL
);

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    number           INTEGER NOT NULL CHECK (number >= 1),
    host_id          INTEGER NOT NULL,
    preset           TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'playing', 'finished', 'closed')),
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    next_deal_delay  INTEGER NOT NULL CHECK (next_deal_delay >= 0),
    created_at       TEXT    NOT NULL,
    UNIQUE (guild_id, number)
);
CREATE INDEX tables_guild_status ON tables (guild_id, status);
CREATE INDEX tables_channel_status ON tables (channel_id, status);
CREATE INDEX tables_status ON tables (status);

CREATE TABLE seats (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    member_id INTEGER,                -- NULL for an AI seat
    name      TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX seats_member ON seats (member_id) WHERE member_id IS NOT NULL;

-- One row per started table.
CREATE TABLE games (
    table_id     INTEGER PRIMARY KEY REFERENCES tables (id),
    first_dealer INTEGER NOT NULL CHECK (first_dealer >= 0),
    winners      TEXT    CHECK (winners IS NULL OR json_valid(winners)),  -- JSON list of seats
    started_at   TEXT    NOT NULL,
    finished_at  TEXT
);

CREATE TABLE deals (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    number      INTEGER NOT NULL CHECK (number >= 0),
    dealer      INTEGER NOT NULL CHECK (dealer >= 0),
    deck        TEXT    NOT NULL,     -- 52 space-separated card codes, top first
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'void')),
    started_at  TEXT    NOT NULL,
    finished_at TEXT,
    UNIQUE (table_id, number)
);
CREATE INDEX deals_status ON deals (status);

-- A deal's identity and deck never change; a closed deal stays closed; deals are never deleted.
CREATE TRIGGER deals_fixed BEFORE UPDATE OF table_id, number, dealer, deck ON deals
BEGIN
    SELECT RAISE(ABORT, 'deals: table_id, number, dealer and deck are immutable');
END;
CREATE TRIGGER deals_closed BEFORE UPDATE OF status ON deals WHEN OLD.status <> 'open'
BEGIN
    SELECT RAISE(ABORT, 'deals: a closed deal cannot change status');
END;
CREATE TRIGGER deals_no_delete BEFORE DELETE ON deals
BEGIN
    SELECT RAISE(ABORT, 'deals: rows are never deleted');
END;

-- The action log: append-only, one row per operation of an open deal.
CREATE TABLE actions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    deal_id    INTEGER NOT NULL REFERENCES deals (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    payload    TEXT    NOT NULL CHECK (json_valid(payload)),
    member_id  INTEGER,
    created_at TEXT    NOT NULL,
    UNIQUE (deal_id, seq)
);
CREATE TRIGGER actions_open_deal BEFORE INSERT ON actions
WHEN (SELECT status FROM deals WHERE id = NEW.deal_id) <> 'open'
BEGIN
    SELECT RAISE(ABORT, 'actions: the deal is not open');
END;
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions: append-only');
END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions: append-only');
END;

-- The points ledger: append-only, signed amounts; member_id NULL for an AI seat.
CREATE TABLE ledger (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    table_id   INTEGER REFERENCES tables (id),
    deal_id    INTEGER REFERENCES deals (id),
    seat       INTEGER,
    member_id  INTEGER,
    amount     INTEGER NOT NULL,
    reason     TEXT    NOT NULL,
    created_at TEXT    NOT NULL
);
CREATE INDEX ledger_guild_member ON ledger (guild_id, member_id);
CREATE INDEX ledger_deal ON ledger (deal_id);
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger: append-only');
END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger: append-only');
END;

-- Final hands of finished deals, for statistics.
CREATE TABLE deal_hands (
    deal_id   INTEGER NOT NULL REFERENCES deals (id),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    member_id INTEGER,
    score     INTEGER NOT NULL,
    label     TEXT    NOT NULL,
    won       INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (deal_id, seat)
);
CREATE INDEX deal_hands_member ON deal_hands (member_id, score) WHERE member_id IS NOT NULL;

CREATE TABLE audit (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    member_id  INTEGER,
    action     TEXT    NOT NULL,
    detail     TEXT    NOT NULL,
    created_at TEXT    NOT NULL
);
CREATE INDEX audit_guild_time ON audit (guild_id, created_at);

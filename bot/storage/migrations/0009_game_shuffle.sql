-- 0009: one fair shuffle per game (issue 19; docs/FAIRNESS.md "In the bot").
-- game_seed: the game's secret seed (64 hex digits), drawn when the lobby opens, read only
-- to deal and shown once the game is over; game_commitment: its SHA-256, which the bot
-- posts in the table channel before anything is dealt; commitment_message_id: that message,
-- which the bot never edits. None of them changes once set.
ALTER TABLE tables ADD COLUMN game_seed TEXT;
ALTER TABLE tables ADD COLUMN game_commitment TEXT;
ALTER TABLE tables ADD COLUMN commitment_message_id INTEGER;
-- attempt: the attempt a deal was dealt from (NULL: dealt with a seed of its own, format 1)
ALTER TABLE deals ADD COLUMN attempt INTEGER CHECK (attempt IS NULL OR attempt >= 1);
-- the per-deal seeds drawn ahead for a next deal are no longer used: forget them
UPDATE tables SET next_seed = NULL, next_commitment = NULL;

-- The shuffle's log, append-only: each cut a seated member typed for a deal ('cut': the
-- member, payload {"text"}), and each attempt at a deal, written and committed before its
-- deck is derived ('attempt': its number, payload {"cuts": [{"seat", "text"}]}). An attempt
-- with no deal of its number and attempt is burned: it is never dealt again.
CREATE TABLE shuffle_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    kind        TEXT    NOT NULL CHECK (kind IN ('cut', 'attempt')),
    deal_number INTEGER NOT NULL CHECK (deal_number >= 1),
    member_id   INTEGER,
    attempt     INTEGER,
    payload     TEXT    NOT NULL CHECK (json_valid(payload)),
    created_at  TEXT    NOT NULL,
    CHECK ((kind = 'cut' AND member_id IS NOT NULL AND attempt IS NULL)
           OR (kind = 'attempt' AND member_id IS NULL AND attempt >= 1))
);
CREATE UNIQUE INDEX shuffle_cut_once ON shuffle_events (table_id, deal_number, member_id)
    WHERE kind = 'cut';
CREATE UNIQUE INDEX shuffle_attempt_once ON shuffle_events (table_id, deal_number, attempt)
    WHERE kind = 'attempt';
CREATE TRIGGER shuffle_events_no_update BEFORE UPDATE ON shuffle_events
BEGIN SELECT RAISE(ABORT, 'shuffle_events: append-only'); END;
CREATE TRIGGER shuffle_events_no_delete BEFORE DELETE ON shuffle_events
BEGIN SELECT RAISE(ABORT, 'shuffle_events: append-only'); END;

CREATE TRIGGER tables_game_seed_fixed BEFORE UPDATE OF game_seed, game_commitment ON tables
WHEN OLD.game_seed IS NOT NULL
     AND (NEW.game_seed IS NOT OLD.game_seed OR NEW.game_commitment IS NOT OLD.game_commitment)
BEGIN SELECT RAISE(ABORT, 'tables: a game seed and its commitment never change'); END;
CREATE TRIGGER tables_commitment_message_fixed BEFORE UPDATE OF commitment_message_id ON tables
WHEN OLD.commitment_message_id IS NOT NULL
     AND NEW.commitment_message_id IS NOT OLD.commitment_message_id
BEGIN SELECT RAISE(ABORT, 'tables: the commitment message never changes'); END;

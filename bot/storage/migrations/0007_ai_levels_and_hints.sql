-- 0007: AI levels and the coach's hints (issue 12).
-- seats.ai_level: how an AI seat plays (easy, normal, strong; docs/AI.md); NULL for a
-- member's seat (when the AI plays for a member away or gone it plays easy).
ALTER TABLE seats ADD COLUMN ai_level TEXT
    CHECK (ai_level IS NULL OR ai_level IN ('easy', 'normal', 'strong'));

-- tables.coach: members may ask the coach for a hint (docs/AI.md "Coach"); on by default.
ALTER TABLE tables ADD COLUMN coach INTEGER NOT NULL DEFAULT 1 CHECK (coach IN (0, 1));

-- A hint the coach gave a member: the deal, the number of operations played when it was
-- asked (so it sits between two actions of the record), the seat, what it advised and why.
-- Append-only, like the action log.
CREATE TABLE hints (
    deal_id    INTEGER NOT NULL REFERENCES deals (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    member_id  INTEGER,
    advice     TEXT    NOT NULL,
    reason     TEXT    NOT NULL,
    created_at TEXT    NOT NULL
);
CREATE INDEX hints_deal ON hints (deal_id, seq);
CREATE TRIGGER hints_no_update BEFORE UPDATE ON hints
BEGIN SELECT RAISE(ABORT, 'hints are append-only'); END;
CREATE TRIGGER hints_no_delete BEFORE DELETE ON hints
BEGIN SELECT RAISE(ABORT, 'hints are append-only'); END;

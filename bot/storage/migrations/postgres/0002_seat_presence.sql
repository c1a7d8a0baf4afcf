-- 0002: seat presence for the turn timer and departures (issue 3); as ../0002_seat_presence.sql.
-- away: the AI plays the seat until its owner clicks "I'm back";
-- timeouts: turns in a row the seat let the timer run out;
-- gone: the member left the server (the AI plays on; their ledger still counts).
ALTER TABLE seats ADD COLUMN away     INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1));
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0);
ALTER TABLE seats ADD COLUMN gone     INTEGER NOT NULL DEFAULT 0 CHECK (gone IN (0, 1));

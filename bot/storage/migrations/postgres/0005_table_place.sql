-- 0005: remember where the bot opened each table (a channel it created, a thread it
-- created, or an existing channel), so it finds its own channels again by id and never
-- by name. NULL for tables opened before this migration. As ../0005_table_place.sql.
ALTER TABLE tables ADD COLUMN place TEXT CHECK (place IN ('channel', 'thread', 'here'));

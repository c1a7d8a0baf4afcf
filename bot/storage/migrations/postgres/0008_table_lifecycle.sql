-- 0008: a table's end as Discord shows it, and the life of its channel; as
-- ../0008_table_lifecycle.sql (issue 18; docs/RELIABILITY.md "A table's channel").
-- end_shown: 1 once the table's end has been shown (its last showdown, the final standings,
-- closed panels and a read-only channel, or a removed lobby channel); 0 while that is owed,
-- so a restart or the watch finishes showing it. Tables that ended before this migration
-- count as shown.
ALTER TABLE tables ADD COLUMN end_shown INTEGER NOT NULL DEFAULT 0 CHECK (end_shown IN (0, 1));
UPDATE tables SET end_shown = 1 WHERE status IN ('finished', 'closed');

-- final_message_id: the final standings, once posted (never posted twice, restarts included).
ALTER TABLE tables ADD COLUMN final_message_id BIGINT;

-- ended_at: when the table finished or closed (ISO 8601 UTC); the channel the bot made for
-- it is removed the guild's keep_days later. NULL for tables ended before this migration
-- (their channels are never removed).
ALTER TABLE tables ADD COLUMN ended_at TEXT;

-- channel_removed: 1 once the bot removed the channel or thread it made for the table.
ALTER TABLE tables ADD COLUMN channel_removed INTEGER NOT NULL DEFAULT 0
    CHECK (channel_removed IN (0, 1));

-- opened_by: the member who opened the table (host_id passes on when a host leaves);
-- counted for the per-member limit on new tables.
ALTER TABLE tables ADD COLUMN opened_by BIGINT;
UPDATE tables SET opened_by = host_id;
CREATE INDEX tables_opened_by ON tables (guild_id, opened_by, created_at);
CREATE INDEX tables_end_owed ON tables (id) WHERE ended_at IS NOT NULL AND end_shown = 0;
CREATE INDEX tables_ended ON tables (ended_at) WHERE ended_at IS NOT NULL AND channel_removed = 0;

-- keep_days: days a finished game's channel stays (read-only) before the bot removes it
-- (0: kept for ever); max_tables: open tables (lobbies and games) a guild may have at once.
ALTER TABLE guild_settings ADD COLUMN keep_days INTEGER NOT NULL DEFAULT 7
    CHECK (keep_days BETWEEN 0 AND 365);
ALTER TABLE guild_settings ADD COLUMN max_tables INTEGER NOT NULL DEFAULT 10
    CHECK (max_tables BETWEEN 1 AND 50);

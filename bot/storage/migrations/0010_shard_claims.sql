-- 0010: which guilds each running bot process serves on PostgreSQL, where several
-- processes share one database (docs/SCALING.md "Claims"). One row per claim: the
-- process's SHARD_COUNT and its SHARD_IDS (a JSON list of shard numbers), who made it and
-- when. A claim is live while the session advisory lock keyed by its id is held
-- (bot/storage/claims.py): the lock goes with the claiming connection, so a dead process's
-- row is only a leftover, which the next claim removes. Never copied (python -m
-- bot.storage copy, backup --sqlite-copy): it describes running processes, not data. On
-- SQLite nothing writes it: one process has the file at a time (its lock file).
CREATE TABLE shard_claims (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    shard_count INTEGER NOT NULL CHECK (shard_count >= 1),
    shard_ids   TEXT    NOT NULL CHECK (json_valid(shard_ids)),
    process     TEXT    NOT NULL,
    claimed_at  TEXT    NOT NULL
);

-- 0010: which guilds each running bot process serves; PostgreSQL's
-- postgres/0010_shard_claims.sql, where several processes share one database. On SQLite
-- nothing writes it: one process has the file at a time (its lock file), so the table is
-- here only to keep the two schemas the same (docs/SCALING.md "Claims").
CREATE TABLE shard_claims (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    shard_count INTEGER NOT NULL CHECK (shard_count >= 1),
    shard_ids   TEXT    NOT NULL CHECK (json_valid(shard_ids)),
    process     TEXT    NOT NULL,
    claimed_at  TEXT    NOT NULL
);

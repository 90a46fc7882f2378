-- 0004: small facts the bot keeps about itself, e.g. the hash of the command payload it last synced
-- per target, so that it syncs commands only when they changed.
CREATE TABLE bot_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

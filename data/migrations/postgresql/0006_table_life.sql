-- 0006: a server's idle time for tables: a lobby or finished table without a press for this many
-- minutes closes itself. NULL means "use the bot's default" (TABLE_IDLE_SECONDS); 0: never.
ALTER TABLE guild_settings ADD COLUMN idle_minutes INTEGER
    CHECK (idle_minutes IS NULL OR idle_minutes >= 0);

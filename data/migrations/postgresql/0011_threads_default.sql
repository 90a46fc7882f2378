-- 0011: a server's default for tables in threads (`/tienlen settings threads:`), beside its other
-- defaults (idle_minutes, ranked, table_channels) instead of a bot_meta fact: 1 on, 0 off,
-- NULL never chosen (off).
ALTER TABLE guild_settings ADD COLUMN threads INTEGER CHECK (threads IN (0, 1));

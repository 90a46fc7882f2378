-- 0003: more server defaults: the table language, turn reminders and card pictures.
-- NULL means "use the bot's default" (language: auto; reminder: 10 s; images: on).
ALTER TABLE guild_settings ADD COLUMN language TEXT
    CHECK (language IS NULL OR language IN ('auto', 'en', 'vi'));
ALTER TABLE guild_settings ADD COLUMN turn_reminder INTEGER
    CHECK (turn_reminder IS NULL OR turn_reminder >= 0);
ALTER TABLE guild_settings ADD COLUMN images INTEGER
    CHECK (images IS NULL OR images IN (0, 1));

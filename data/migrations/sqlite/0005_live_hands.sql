-- 0005: live hands. What the bot needs to keep editing a person's private hand message after a
-- restart: the interaction that showed it (id, application, token: the token is a secret that
-- lets anyone edit that message for 15 minutes; it is never logged or printed), the message, the
-- latest drawing number, the selection (hex, up to 104 bits), the owner's language and the game
-- version last shown. One row per (table, person); deleted when the token retires, when the
-- person leaves and when the table closes.
CREATE TABLE live_hands (
    table_id       INTEGER NOT NULL REFERENCES tables (id),
    user_id        INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    interaction_id INTEGER NOT NULL,
    token          TEXT NOT NULL,
    message_id     INTEGER,
    drawing        INTEGER NOT NULL,
    selection      TEXT NOT NULL DEFAULT '0',
    lang           TEXT NOT NULL DEFAULT 'en',
    shown_version  INTEGER,
    updated_at     TEXT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

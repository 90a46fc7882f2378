-- 0009: server admins' chip tools and where tables may open.
-- admin_actions: one row per admin change (grant, take, set, leaderboard reset), naming the admin
-- and the reason; append-only like the ledger. Each chip movement it caused is a chip_ledger row
-- (reason admin_grant or admin_take) pointing at it through admin_action_id.
CREATE TABLE admin_actions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    admin_id    INTEGER NOT NULL,
    user_id     INTEGER,
    action      TEXT NOT NULL CHECK (action IN ('grant', 'take', 'set', 'reset')),
    amount      INTEGER CHECK (amount IS NULL OR amount >= 0),
    delta       INTEGER NOT NULL DEFAULT 0,
    chips_after INTEGER CHECK (chips_after IS NULL OR chips_after >= 0),
    players     INTEGER NOT NULL DEFAULT 0 CHECK (players >= 0),
    stats       TEXT CHECK (stats IS NULL OR stats IN ('keep', 'clear')),
    reason      TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
    created_at  TEXT NOT NULL,
    CHECK ((action = 'reset') = (user_id IS NULL))
);
CREATE INDEX admin_actions_guild ON admin_actions (guild_id, id);
CREATE INDEX admin_actions_user ON admin_actions (guild_id, user_id, id);
CREATE TRIGGER admin_actions_no_update BEFORE UPDATE ON admin_actions
BEGIN SELECT RAISE(ABORT, 'admin_actions is append-only'); END;
CREATE TRIGGER admin_actions_no_delete BEFORE DELETE ON admin_actions
BEGIN SELECT RAISE(ABORT, 'admin_actions is append-only'); END;

ALTER TABLE chip_ledger ADD COLUMN admin_action_id INTEGER REFERENCES admin_actions (id);
CREATE INDEX chip_ledger_admin_action ON chip_ledger (admin_action_id)
    WHERE admin_action_id IS NOT NULL;

-- The channels a server's tables may open in (a JSON list of channel ids); NULL: every channel.
ALTER TABLE guild_settings ADD COLUMN table_channels TEXT;

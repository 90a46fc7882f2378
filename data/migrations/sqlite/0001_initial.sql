-- 0001: players, the chip ledger, tables, games, results, stats, guild settings.
-- Money rule: players.chips always equals the sum of that player's chip_ledger rows.

CREATE TABLE players (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    chips         INTEGER NOT NULL CHECK (chips >= 0),
    last_daily_at TEXT,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    rules_json       TEXT NOT NULL,
    stake            INTEGER NOT NULL CHECK (stake >= 0),
    turn_seconds     INTEGER NOT NULL CHECK (turn_seconds > 0),
    seats_json       TEXT NOT NULL,
    board_message_id INTEGER,
    board_posted_at  TEXT,
    current_game_id  INTEGER REFERENCES games (id),
    state_json       TEXT,
    version          INTEGER NOT NULL DEFAULT 1,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
-- One open table per channel (a thread is a channel).
CREATE UNIQUE INDEX tables_open_channel ON tables (channel_id) WHERE status = 'open';

CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    table_id     INTEGER REFERENCES tables (id),
    host_id      INTEGER NOT NULL,
    rules_json   TEXT NOT NULL,
    stake        INTEGER NOT NULL CHECK (stake >= 0),
    status       TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    seats_json   TEXT NOT NULL,
    state_json   TEXT,
    version      INTEGER NOT NULL DEFAULT 1,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    finished_at  TEXT
);
CREATE INDEX games_status ON games (status);

-- Append-only: triggers below forbid UPDATE and DELETE.
CREATE TABLE chip_ledger (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    delta        INTEGER NOT NULL CHECK (delta <> 0),
    reason       TEXT NOT NULL,
    game_id      INTEGER REFERENCES games (id),
    counterparty INTEGER,
    created_at   TEXT NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
);
CREATE TRIGGER chip_ledger_no_update BEFORE UPDATE ON chip_ledger
BEGIN SELECT RAISE(ABORT, 'chip_ledger is append-only'); END;
CREATE TRIGGER chip_ledger_no_delete BEFORE DELETE ON chip_ledger
BEGIN SELECT RAISE(ABORT, 'chip_ledger is append-only'); END;

CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    user_id     INTEGER,
    place       INTEGER NOT NULL CHECK (place >= 1),
    chip_change INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE TABLE player_stats (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    chips_won    INTEGER NOT NULL DEFAULT 0,
    chips_lost   INTEGER NOT NULL DEFAULT 0,
    bombs_played INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE player_places (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    place    INTEGER NOT NULL CHECK (place >= 1),
    count    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, place),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    preset       TEXT,
    stake        INTEGER CHECK (stake IS NULL OR stake >= 0),
    turn_seconds INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0)
);

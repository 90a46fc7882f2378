-- 0012: seasons of ranked play (docs/RATING.md). seasons: one row per season of a server; the
-- current one has ended_at NULL (at most one per server), ends_at is its planned end (NULL when the
-- server's seasons are off). season_standings: a season's ladder frozen when it ended (rank NULL:
-- still provisional then, listed apart; games: the season's ranked games).
-- ratings.season_games and ratings.best count the current season (best is reset with the rating);
-- ratings.games stays the count of every ranked game (provisional until 10).
-- guild_settings.season: 'monthly' or 'off' (NULL: the bot's default, monthly).
CREATE TABLE seasons (
    guild_id   BIGINT NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    started_at TEXT NOT NULL,
    ends_at    TEXT,
    ended_at   TEXT,
    PRIMARY KEY (guild_id, number)
);
CREATE UNIQUE INDEX seasons_current ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE TABLE season_standings (
    guild_id BIGINT NOT NULL,
    season   INTEGER NOT NULL,
    user_id  BIGINT NOT NULL,
    rank     INTEGER CHECK (rank >= 1),
    display  INTEGER NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    games    INTEGER NOT NULL,
    best     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
);
ALTER TABLE ratings ADD COLUMN season_games INTEGER NOT NULL DEFAULT 0 CHECK (season_games >= 0);
UPDATE ratings SET season_games = games;
ALTER TABLE guild_settings ADD COLUMN season TEXT CHECK (season IN ('monthly', 'off'));

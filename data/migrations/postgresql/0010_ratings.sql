-- 0010: ranked play (docs/RATING.md). games.ranked: 1 for a ranked game (older games count as
-- ranked, so the backfill replays them). ratings: one row per person per server, and one per
-- person with guild_id 0 for the global ladder. rating_changes: what each finished ranked game did
-- to each rating, written in the settlement's transaction (once per game).
ALTER TABLE games ADD COLUMN ranked INTEGER NOT NULL DEFAULT 1 CHECK (ranked IN (0, 1));
CREATE TABLE ratings (
    guild_id     BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    display      INTEGER NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    last_change  INTEGER NOT NULL DEFAULT 0,
    best         INTEGER NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX ratings_ladder ON ratings (guild_id, display DESC, user_id);
CREATE TABLE rating_changes (
    game_id        BIGINT NOT NULL REFERENCES games (id),
    guild_id       BIGINT NOT NULL,
    user_id        BIGINT NOT NULL,
    seat           INTEGER NOT NULL,
    mu_before      DOUBLE PRECISION NOT NULL,
    sigma_before   DOUBLE PRECISION NOT NULL,
    mu_after       DOUBLE PRECISION NOT NULL,
    sigma_after    DOUBLE PRECISION NOT NULL,
    display_before INTEGER NOT NULL,
    display_after  INTEGER NOT NULL,
    PRIMARY KEY (game_id, guild_id, user_id)
);
-- guild_settings.ranked: whether /tienlen start deals ranked games when its ranked: option is not
-- given (NULL: the bot's default, ranked).
ALTER TABLE guild_settings ADD COLUMN ranked INTEGER CHECK (ranked IN (0, 1));

-- 0014: a person's own preferences (`/tienlen prefs`), for every server: the four-colour deck
-- (1 on), the hand sorted by 'rank' or 'suit', pictures of their own hand (1 on). A row exists
-- once they chose something; no row means the defaults.
CREATE TABLE player_prefs (
    user_id     BIGINT PRIMARY KEY,
    four_colour INTEGER NOT NULL DEFAULT 0 CHECK (four_colour IN (0, 1)),
    sort_by     TEXT NOT NULL DEFAULT 'rank' CHECK (sort_by IN ('rank', 'suit')),
    pictures    INTEGER NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1)),
    updated_at  TEXT NOT NULL
);

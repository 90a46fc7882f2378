-- 0002: indexes for the ledger audit, per-game lookups and leaderboards.
CREATE INDEX chip_ledger_player ON chip_ledger (guild_id, user_id);
CREATE INDEX chip_ledger_game ON chip_ledger (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX players_by_chips ON players (guild_id, chips DESC, user_id);
CREATE INDEX player_stats_by_wins ON player_stats (guild_id, wins DESC, user_id);

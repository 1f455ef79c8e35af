-- The time-range rule of 0021 for the time columns added since (chat turns, curator state, quota, usage,
-- curator runs, dropped operations, vocabulary proposals).
CALL wm_constrain_time_ranges();

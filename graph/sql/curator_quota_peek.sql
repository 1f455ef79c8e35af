-- The owner's bucket as stored (no lock, no change); no row: never used, so full.
-- Returns: level, updated_at, now
SELECT level, updated_at, clock_timestamp() AS now FROM curator_quota

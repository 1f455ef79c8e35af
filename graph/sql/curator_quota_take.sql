-- The owner's token bucket, locked until the transaction ends (run curator_quota_create first).
-- Returns: level, updated_at, now (the database clock, which the refill is computed against)
SELECT level, updated_at, clock_timestamp() AS now FROM curator_quota FOR UPDATE

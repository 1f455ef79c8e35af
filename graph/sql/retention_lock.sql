-- The retention job's session advisory lock (one job at a time per database): true when taken.
-- Returns: locked
SELECT pg_try_advisory_lock(%(key)s) AS locked

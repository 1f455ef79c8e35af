-- Release the retention job's session advisory lock.
-- Returns: unlocked
SELECT pg_advisory_unlock(%(key)s) AS unlocked

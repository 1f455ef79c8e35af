-- platform_cluster_lock: a session advisory lock in the cluster's `postgres` database, held while one
-- migrator migrates any database of the cluster (advisory locks are per database; this one is common).
SELECT pg_advisory_lock(%s)

-- How far a standby has replayed the primary's WAL (NULL on a server that is not in recovery).
SELECT pg_last_wal_replay_lsn()::text AS lsn

-- A standby's slot on the primary, and how far the standby's replay trails the primary's WAL (bytes, and the
-- time replay_lag reports).
SELECT s.slot_name, s.active, r.application_name, r.state, r.replay_lsn::text AS replay_lsn,
       pg_wal_lsn_diff(pg_current_wal_lsn(), r.replay_lsn)::bigint AS replay_lag_bytes,
       (extract(epoch FROM r.replay_lag) * 1000)::float8 AS replay_lag_ms
FROM pg_replication_slots s
LEFT JOIN pg_stat_replication r ON r.pid = s.active_pid
WHERE s.slot_name = %(slot)s

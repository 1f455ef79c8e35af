-- After a COMMIT, on the same connection: a WAL position at or past the end of that commit's record, which a
-- standby that has replayed it sees. With synchronous_commit on (or local, remote_write, ...) COMMIT returned
-- after its record was flushed, so the flush position is past it, and everything up to it is streamed at once;
-- with it off the record may not be flushed yet, and only the insert position is sure to be past it.
SELECT CASE WHEN current_setting('synchronous_commit') = 'off' THEN pg_current_wal_insert_lsn()
            ELSE pg_current_wal_flush_lsn() END::text AS lsn

-- commit_record: the proposal's record (its result, for a retry to replay), the owner's clock advanced to its
-- system time (as clock_advance.sql) and the announcement to listeners (wm_announce_commit, 0076, as
-- live_commit_notify.sql; ids and counts only), in ONE statement: one round trip, not three.
-- The announcement's reads of facts and world_events see every row the proposal's earlier statements wrote;
-- NOTIFY is delivered at COMMIT and dropped on ROLLBACK. Columns: wm_announce_commit (void).
WITH recorded AS (
    INSERT INTO proposals (run_id, chat_id, payload_hash, recorded_at, result)
    VALUES (%(run_id)s, %(chat_id)s, %(payload_hash)s, %(recorded_at)s, %(result)s)
), advanced AS (
    UPDATE owner_clock SET last_recorded_at = greatest(last_recorded_at, %(recorded_at)s)
    WHERE owner_sub = wm_owner()
)
SELECT wm_announce_commit(%(run_id)s, %(committed)s::int, %(pending)s::int)

-- commit_record: the proposal's record (its result, for a retry to replay) and the owner's clock advanced to its
-- system time (as clock_advance.sql), in one statement (issue 11: they were two). Columns: none.
WITH recorded AS (
    INSERT INTO proposals (run_id, chat_id, payload_hash, recorded_at, result)
    VALUES (%(run_id)s, %(chat_id)s, %(payload_hash)s, %(recorded_at)s, %(result)s)
)
UPDATE owner_clock SET last_recorded_at = greatest(last_recorded_at, %(recorded_at)s) WHERE owner_sub = wm_owner()

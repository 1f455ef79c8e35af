-- commit_record: the proposal's record (its result, for a retry to replay), the owner's clock advanced to its
-- system time (as clock_advance.sql) and the announcement to listeners (as live_commit_notify.sql, whose
-- comment says what it holds and why: ids and counts only), in ONE statement (issue 11: they were three).
-- The announcement's reads of facts and world_events see every row the proposal's earlier statements wrote;
-- NOTIFY is delivered at COMMIT and dropped on ROLLBACK. Columns: pg_notify (void).
WITH recorded AS (
    INSERT INTO proposals (run_id, chat_id, payload_hash, recorded_at, result)
    VALUES (%(run_id)s, %(chat_id)s, %(payload_hash)s, %(recorded_at)s, %(result)s)
), advanced AS (
    UPDATE owner_clock SET last_recorded_at = greatest(last_recorded_at, %(recorded_at)s)
    WHERE owner_sub = wm_owner()
)
SELECT pg_notify('worldmem_commit', json_build_object(
    'owner', current_setting('app.current_owner'),
    'committed', %(committed)s::int,
    'pending', %(pending)s::int,
    'entityIds', coalesce((
        SELECT json_agg(id) FROM (
            SELECT DISTINCT id FROM (
                SELECT subject_id AS id FROM facts WHERE owner_sub = current_setting('app.current_owner') AND run_id = %(run_id)s
                UNION ALL
                SELECT object_entity_id FROM facts WHERE owner_sub = current_setting('app.current_owner') AND run_id = %(run_id)s
                UNION ALL
                SELECT target_entity_id FROM world_events WHERE owner_sub = current_setting('app.current_owner') AND run_id = %(run_id)s
                UNION ALL
                SELECT actor_entity_id FROM world_events WHERE owner_sub = current_setting('app.current_owner') AND run_id = %(run_id)s
            ) touched WHERE id IS NOT NULL LIMIT 100
        ) ids), '[]'::json)
)::text)

-- live_commit_notify: tell listeners (the explorer's memoryCommitted subscription) that a proposal committed.
-- Columns: none (one pg_notify). Ids and counts only, never names or values: any role of the database may
-- LISTEN on a channel, so the payload carries nothing a row-level policy would hide beyond ids.
-- The entities are the subjects and objects of the run's fact rows and the actors and targets of its events,
-- found through the (owner_sub, run_id) indexes facts_run and world_events_run. NOTIFY is delivered at COMMIT
-- and dropped on ROLLBACK; payloads must stay under 8000 bytes, so at most 100 ids are listed.
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

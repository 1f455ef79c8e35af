SET LOCAL ROLE worldmem_owner;

-- The announcement of a committed proposal to listeners (the explorer's memoryCommitted subscription,
-- graph/platform/live.py), as ONE function for the committer's commit_record.sql and the sync writer's
-- live_commit_notify.sql, which had the same 17-line statement each. Ids and counts only, never names or
-- values: any role of the database may LISTEN on a channel, so the payload carries nothing a row-level policy
-- would hide beyond ids. The entities are the subjects and objects of the run's fact rows and the actors and
-- targets of its events, found through the (owner_sub, run_id) indexes facts_run and world_events_run; at most
-- 100 ids (payloads must stay under 8000 bytes). NOTIFY is delivered at COMMIT and dropped on ROLLBACK.
-- Invoker's rights: row-level security applies to the reads as to the statement that calls it.
CREATE OR REPLACE FUNCTION wm_announce_commit(run text, committed integer, pending integer)
    RETURNS void LANGUAGE sql VOLATILE AS $fn$
    SELECT pg_catalog.pg_notify('worldmem_commit', json_build_object(
        'owner', current_setting('app.current_owner'),
        'committed', wm_announce_commit.committed,
        'pending', wm_announce_commit.pending,
        'entityIds', coalesce((
            SELECT json_agg(id) FROM (
                SELECT DISTINCT id FROM (
                    SELECT f.subject_id AS id FROM public.facts f
                    WHERE f.owner_sub = current_setting('app.current_owner') AND f.run_id = wm_announce_commit.run
                    UNION ALL
                    SELECT f.object_entity_id FROM public.facts f
                    WHERE f.owner_sub = current_setting('app.current_owner') AND f.run_id = wm_announce_commit.run
                    UNION ALL
                    SELECT w.target_entity_id FROM public.world_events w
                    WHERE w.owner_sub = current_setting('app.current_owner') AND w.run_id = wm_announce_commit.run
                    UNION ALL
                    SELECT w.actor_entity_id FROM public.world_events w
                    WHERE w.owner_sub = current_setting('app.current_owner') AND w.run_id = wm_announce_commit.run
                ) touched WHERE id IS NOT NULL LIMIT 100
            ) ids), '[]'::json)
    )::text)
$fn$;
GRANT EXECUTE ON FUNCTION wm_announce_commit(text, integer, integer) TO worldmem_app;

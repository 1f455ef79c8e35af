SET LOCAL ROLE worldmem_owner;

-- The retention notice's rows as a function a read calls inside its own statement (graph/sql/reads_*.sql; the
-- notice's own statements, retention_notice.sql and retention_notice_series.sql, call it too;
-- graph/retention/notice.py reads the columns): for a read about `subject` at `valid_time`, the owner's edge,
-- whether the entity has any rollup, and its fact rollups of the month of that time (by predicate); its twin
-- for a whole series is wm_notice_series. No edge: no row. Invoker's rights (row-level security as for the
-- statement around it); LANGUAGE sql, STABLE, without SET, so the planner may inline it. Index:
-- retention_rollups_subject.
CREATE OR REPLACE FUNCTION wm_notice_as_of(subject uuid, valid_time timestamptz)
    RETURNS TABLE (edge timestamptz, rolled_up boolean, rollups jsonb)
    LANGUAGE sql STABLE AS $fn$
    SELECT g.edge,
           EXISTS (SELECT 1 FROM public.retention_rollups r
                   WHERE r.owner_sub = public.wm_owner() AND r.subject_id = wm_notice_as_of.subject),
           coalesce((SELECT jsonb_agg(jsonb_build_object('projection_id', p.id, 'predicate', r.predicate,
                                                         'month', r.month, 'text', p.text) ORDER BY r.predicate)
                     FROM public.retention_rollups r JOIN public.memory_projections p ON p.id = r.projection_id
                     WHERE r.owner_sub = public.wm_owner() AND r.subject_id = wm_notice_as_of.subject
                       AND r.kind = 'facts'
                       AND r.month = date_trunc('month', wm_notice_as_of.valid_time AT TIME ZONE 'UTC')::date),
                    '[]'::jsonb)
    FROM public.retention_edges g
    WHERE g.owner_sub = public.wm_owner()
$fn$;
GRANT EXECUTE ON FUNCTION wm_notice_as_of(uuid, timestamptz) TO worldmem_app;

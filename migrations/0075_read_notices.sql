-- The retention notice's rows as functions, so a read can ask for them inside its own statement (one
-- statement per read after the owner, issue 11: graph/sql/reads_*.sql) and the notice's own statements
-- (retention_notice.sql, retention_notice_series.sql) say the same by calling them. The bodies are those
-- statements' (graph/retention/notice.py reads the columns):
--   wm_notice_as_of(subject, valid_time): for a read about `subject` at `valid_time`: the owner's edge,
--     whether the entity has any rollup, and its fact rollups of the month of that time (by predicate);
--   wm_notice_series(subject, series): for a read of the whole series (subject, predicate): the edge and
--     every fact rollup of that series, oldest month first.
-- No edge: no row. Invoker's rights (row-level security as for the statement around them); LANGUAGE sql,
-- STABLE, without SET, so the planner may inline them. Index: retention_rollups_subject.
SET LOCAL ROLE worldmem_owner;

CREATE FUNCTION wm_notice_as_of(subject uuid, valid_time timestamptz)
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

CREATE FUNCTION wm_notice_series(subject uuid, series text)
    RETURNS TABLE (edge timestamptz, rollups jsonb)
    LANGUAGE sql STABLE AS $fn$
    SELECT g.edge,
           coalesce((SELECT jsonb_agg(jsonb_build_object('projection_id', p.id, 'predicate', r.predicate,
                                                         'month', r.month, 'text', p.text) ORDER BY r.month)
                     FROM public.retention_rollups r JOIN public.memory_projections p ON p.id = r.projection_id
                     WHERE r.owner_sub = public.wm_owner() AND r.subject_id = wm_notice_series.subject
                       AND r.kind = 'facts' AND r.predicate = wm_notice_series.series),
                    '[]'::jsonb)
    FROM public.retention_edges g
    WHERE g.owner_sub = public.wm_owner()
$fn$;

GRANT EXECUTE ON FUNCTION wm_notice_as_of(uuid, timestamptz), wm_notice_series(uuid, text) TO worldmem_app;

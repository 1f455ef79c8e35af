-- One statement per point read after the owner (issue 11): what a read needs besides its ref (0074), as
-- functions it can call inside its own statement. First the retention notice's rows (graph/sql/reads_*.sql),
-- which the notice's own statements (retention_notice.sql, retention_notice_series.sql) now call too. The
-- bodies are those statements' (graph/retention/notice.py reads the columns):
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

-- The first level of a neighbour traversal's frontier, for cypher/neighbors_first.cypher (which calls it, so
-- graph.reads.traversal's first level is one statement: graph/sql/traversal_first.sql): the origin `wanted`
-- names as known at system time `r` (wm_resolve above, 0074: ref, else one alias, then the survivor; `r` in
-- microseconds as the edges' times, null = now), followed by the entities merged into it (possibly through a
-- chain), whose edges belong to it: as traversal_merged_sources.sql (now: entities.merged_into_id) and
-- traversal_merged_sources_at.sql (as known at r: entity_merges). An agtype list of id strings, the origin
-- first; empty when the ref names no single entity. Invoker's rights, like the rest. PL/pgSQL, not SQL: it
-- is called from inside the Cypher query, where it cannot be inlined, and PL/pgSQL keeps its statements'
-- plans for the session (measured: 0.12 against 0.17 ms per call as a SQL function, load ~6).
CREATE FUNCTION wm_frontier(wanted ag_catalog.agtype, r ag_catalog.agtype) RETURNS ag_catalog.agtype
    LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    at timestamptz := public.wm_micros(r);
    origin uuid;
    merged jsonb;
BEGIN
    SELECT o.id INTO origin FROM public.wm_resolve(wanted::text, at, true) o WHERE o.outcome = 'found';
    IF origin IS NULL THEN
        RETURN '[]'::ag_catalog.agtype;
    END IF;
    IF at IS NULL THEN
        WITH RECURSIVE m (id, hops) AS (
            SELECT e.id, 1 FROM public.entities e WHERE e.owner_sub = public.wm_owner() AND e.merged_into_id = origin
            UNION ALL
            SELECT e.id, m.hops + 1 FROM public.entities e JOIN m ON e.merged_into_id = m.id
            WHERE e.owner_sub = public.wm_owner() AND m.hops < 16
        )
        SELECT jsonb_agg(m.id) INTO merged FROM m;
    ELSE
        WITH RECURSIVE m (id, hops) AS (
            SELECT g.merged_id, 1 FROM public.entity_merges g
            WHERE g.owner_sub = public.wm_owner() AND g.into_id = origin
              AND public.wm_known(g.recorded_at, g.split_at, at)
            UNION ALL
            SELECT g.merged_id, m.hops + 1 FROM public.entity_merges g JOIN m ON g.into_id = m.id
            WHERE g.owner_sub = public.wm_owner() AND m.hops < 16 AND public.wm_known(g.recorded_at, g.split_at, at)
        )
        SELECT jsonb_agg(m.id) INTO merged FROM m;
    END IF;
    RETURN (jsonb_build_array(origin) || coalesce(merged, '[]'::jsonb))::text::ag_catalog.agtype;
END
$fn$;

GRANT EXECUTE ON FUNCTION wm_frontier(ag_catalog.agtype, ag_catalog.agtype) TO worldmem_app;

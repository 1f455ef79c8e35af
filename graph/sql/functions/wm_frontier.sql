SET LOCAL ROLE worldmem_owner;

-- The first level of a neighbour traversal's frontier, for cypher/neighbors_first.cypher (which calls it, so
-- graph.reads.traversal's first level is one statement: graph/sql/traversal_first.sql): the origin `wanted`
-- names as known at system time `r` (wm_resolve above, 0074: ref, else one alias, then the survivor; `r` in
-- microseconds as the edges' times, null = now), followed by the entities merged into it (possibly through a
-- chain), whose edges belong to it: as traversal_merged_sources.sql (now: entities.merged_into_id) and
-- traversal_merged_sources_at.sql (as known at r: entity_merges). An agtype list of id strings, the origin
-- first; empty when the ref names no single entity. Invoker's rights, like the rest. PL/pgSQL, not SQL: it
-- is called from inside the Cypher query, where it cannot be inlined, and PL/pgSQL keeps its statements'
-- plans for the session (measured: 0.12 against 0.17 ms per call as a SQL function, load ~6).
CREATE OR REPLACE FUNCTION wm_frontier(wanted ag_catalog.agtype, r ag_catalog.agtype) RETURNS ag_catalog.agtype
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

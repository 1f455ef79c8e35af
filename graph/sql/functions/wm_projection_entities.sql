SET LOCAL ROLE worldmem_owner;

-- The entities a finder projection points at, as the ledger has them now: one function for the three
-- projection statements (finder_search_text, finder_search_vector, finder_search_vector_exact), which had
-- the same resolution block written three times. `ids`: every entity id of the statement's rows at once
-- (one index scan, as agent_find_entity.sql); a merged entity answers as its survivor (wm_survivor, 0015);
-- only entities of `wanted_kind` when it is given. Invoker's rights: row-level security applies as to the
-- statement around it. LANGUAGE sql, STABLE and without SET, so the planner may inline it.
CREATE OR REPLACE FUNCTION wm_projection_entities(ids uuid[], wanted_kind text)
    RETURNS TABLE (source_id uuid, id uuid, ref text, kind text, name text)
    LANGUAGE sql STABLE AS $fn$
    WITH resolved AS MATERIALIZED (
        SELECT e.id AS source_id,
               CASE WHEN e.merged_into_id IS NULL THEN e.id ELSE public.wm_survivor(e.id, NULL) END AS survivor_id
        FROM public.entities e
        WHERE e.owner_sub = public.wm_owner() AND e.id = ANY(ids)
    )
    SELECT r.source_id, s.id, s.ref, s.kind, s.canonical_name
    FROM resolved r
    JOIN public.entities s ON s.id = r.survivor_id
    WHERE wanted_kind IS NULL OR s.kind = wanted_kind
$fn$;
GRANT EXECUTE ON FUNCTION wm_projection_entities(uuid[], text) TO worldmem_app;

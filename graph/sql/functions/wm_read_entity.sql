SET LOCAL ROLE worldmem_owner;

-- getEntity's one statement: as wm_read_state_at (an exact ref of an unmerged entity skips wm_resolve), with
-- the entity's aliases (wm_entity_aliases) and its current beliefs both ways (wm_entity_facts).
CREATE OR REPLACE FUNCTION wm_read_entity(reader text, wanted text, at timestamptz, most integer)
    RETURNS TABLE (outcome text, via text, entity_id uuid, entity_ref text, entity_kind text, entity_name text, aliases text[], part integer,
                   id uuid, about_id uuid, subject_ref text, predicate text, functional boolean, object_kind text,
                   object_value jsonb, object_ref text, valid_from timestamptz, valid_to timestamptz,
                   recorded_at timestamptz, superseded_at timestamptz, observed_at timestamptz, status text,
                   source text, confidence real, scope_ref text, priority smallint, memory_type text, reason text,
                   evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    hit record;
BEGIN
    PERFORM public.wm_pin_reader(reader);
    SELECT e.id, e.ref, e.kind, e.canonical_name INTO hit
    FROM public.entities e
    WHERE e.owner_sub = public.wm_owner() AND e.ref = wm_read_entity.wanted AND e.merged_into_id IS NULL;
    IF FOUND THEN
        RETURN QUERY
        SELECT 'found'::text, 'ref'::text, hit.id, hit.ref, hit.kind, hit.canonical_name, a.aliases, f.*
        FROM (SELECT 1) AS one
        LEFT JOIN LATERAL public.wm_entity_aliases(hit.id, wm_read_entity.at) a ON true
        LEFT JOIN LATERAL public.wm_entity_facts(hit.id, wm_read_entity.at, wm_read_entity.most) f ON true
        ORDER BY f.part, f.predicate, f.valid_from, f.id;
    ELSE
        RETURN QUERY
        SELECT r.outcome, r.via, r.id, r.ref, r.kind, r.canonical_name, a.aliases, f.*
        FROM public.wm_resolve(wm_read_entity.wanted, NULL, true) r
        LEFT JOIN LATERAL public.wm_entity_aliases(r.id, wm_read_entity.at) a ON true
        LEFT JOIN LATERAL public.wm_entity_facts(r.id, wm_read_entity.at, wm_read_entity.most) f ON true
        ORDER BY f.part, f.predicate, f.valid_from, f.id;
    END IF;
END
$fn$;
REVOKE EXECUTE ON FUNCTION wm_read_entity(text, text, timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_read_entity(text, text, timestamptz, integer) TO worldmem_app;

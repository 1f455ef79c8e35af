SET LOCAL ROLE worldmem_owner;

-- stateAt's one statement (see wm_pin_reader). An exact ref of an entity that was never merged, nearly every
-- library read, skips wm_resolve's plan (five materialized CTEs, two InitPlans, three index scans: a third of
-- the read's server time): the ref is looked up first (one index scan, entities_owner_ref) and, when it names
-- an entity whose merged_into_id is NULL, that entity answers; otherwise wm_resolve does. The shortcut is
-- exactly wm_resolve(wanted, NULL, true)'s answer for such a ref: by_ref holds that one row (entities_owner_ref
-- is unique), so by_alias is skipped, `named` has one row, and with no system time and no merge the survivor
-- is the row itself: outcome 'found', via 'ref', the entity's own columns (tests/test_pinned_by_ref.py
-- compares both paths).
-- PL/pgSQL (only the taken statement's plan is started; it keeps both plans for the session) and STABLE, so
-- the lookup and the read see ONE snapshot, the calling statement's (a VOLATILE function takes a new snapshot
-- per statement: a merge committed between them could be half seen). The first statement pins the owner
-- (wm_pin_reader); a STABLE function may call it (set_config writes no table). The facts are wm_state_facts,
-- an inlined SQL function, so both paths share one text.
CREATE OR REPLACE FUNCTION wm_read_state_at(reader text, wanted text, valid_time timestamptz)
    RETURNS TABLE (outcome text, via text, entity_id uuid, entity_ref text, entity_kind text, entity_name text, edge timestamptz, rolled_up boolean, rollups jsonb,
                   id uuid, predicate text, functional boolean, object_kind text, object_value jsonb, object_ref text,
                   valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz, superseded_at timestamptz,
                   observed_at timestamptz, status text, source text, confidence real, scope_ref text, priority smallint,
                   memory_type text, reason text, evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    hit record;
BEGIN
    PERFORM public.wm_pin_reader(reader);
    SELECT e.id, e.ref, e.kind, e.canonical_name INTO hit
    FROM public.entities e
    WHERE e.owner_sub = public.wm_owner() AND e.ref = wm_read_state_at.wanted AND e.merged_into_id IS NULL;
    IF FOUND THEN
        RETURN QUERY
        SELECT 'found'::text, 'ref'::text, hit.id, hit.ref, hit.kind, hit.canonical_name, n.edge, n.rolled_up,
               n.rollups, f.*
        FROM (SELECT 1) AS one
        LEFT JOIN LATERAL public.wm_notice_as_of(hit.id, wm_read_state_at.valid_time) n ON true
        LEFT JOIN LATERAL public.wm_state_facts(hit.id, wm_read_state_at.valid_time) f ON true
        ORDER BY f.predicate, f.valid_from, f.id;
    ELSE
        RETURN QUERY
        SELECT r.outcome, r.via, r.id, r.ref, r.kind, r.canonical_name, n.edge, n.rolled_up, n.rollups, f.*
        FROM public.wm_resolve(wm_read_state_at.wanted, NULL, true) r
        LEFT JOIN LATERAL public.wm_notice_as_of(r.id, wm_read_state_at.valid_time) n ON true
        LEFT JOIN LATERAL public.wm_state_facts(r.id, wm_read_state_at.valid_time) f ON true
        ORDER BY f.predicate, f.valid_from, f.id;
    END IF;
END
$fn$;
REVOKE EXECUTE ON FUNCTION wm_read_state_at(text, text, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_read_state_at(text, text, timestamptz) TO worldmem_app;

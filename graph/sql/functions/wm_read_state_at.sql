SET LOCAL ROLE worldmem_owner;

-- stateAt and getEntity without wm_resolve's plan when the ref names an unmerged entity (issue 11).
-- Measured (bench/README.md, "Library point reads, fourth pass"): of wm_read_state_at's ~0.13 ms in the server,
-- ~0.04 ms is wm_resolve's plan (five materialized CTEs, two InitPlans, three index scans of entities) even
-- when the ref is an exact ref of an entity that was never merged, which is nearly every library read; a
-- version of the read without it took 0.18 against 0.23 ms per call (p50, raw libpq, alternating).
-- So these two functions now look the ref up first (one index scan, entities_owner_ref) and, when it names
-- an entity whose merged_into_id is NULL, answer with that entity; otherwise the statement of 0080, with
-- wm_resolve, answers as before. The shortcut is exactly wm_resolve(wanted, NULL, true)'s answer for such a
-- ref: by_ref holds that one row (entities_owner_ref is unique), so by_alias is skipped, `named` has one
-- row, and with no system time and no merge the survivor is the row itself: outcome 'found', via 'ref', the
-- entity's own columns (tests/test_one_statement.py compares both paths).
-- PL/pgSQL (only the taken statement's plan is started; it keeps both plans for the session) and STABLE, so
-- the lookup and the read see ONE snapshot, the calling statement's, as the single statement of 0080 did (a
-- VOLATILE function takes a new snapshot per statement: a merge committed between them could be half seen).
-- The first statement still pins the owner (wm_pin_reader: app.current_owner and transaction_read_only,
-- transaction-locally); a STABLE function may call it (set_config writes no table). Invoker's rights, row-level
-- security as before; the grants of 0080 stay (CREATE OR REPLACE keeps them). The facts parts are the
-- lateral subqueries of 0080, unchanged, as inlined SQL functions so both paths share one text.
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

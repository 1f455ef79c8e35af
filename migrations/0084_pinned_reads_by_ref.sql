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
SET LOCAL ROLE worldmem_owner;

-- stateAt's facts of `subject`: believed now, active, valid at `valid_time` (0080's lateral subquery).
CREATE FUNCTION wm_state_facts(subject uuid, valid_time timestamptz)
    RETURNS TABLE (id uuid, predicate text, functional boolean, object_kind text, object_value jsonb, object_ref text,
                   valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz, superseded_at timestamptz,
                   observed_at timestamptz, status text, source text, confidence real, scope_ref text, priority smallint,
                   memory_type text, reason text, evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql STABLE AS $fn$
    SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
           f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
           s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM public.facts f
    LEFT JOIN public.entities o ON o.id = f.object_entity_id
    LEFT JOIN public.entities s ON s.id = f.scope_entity_id
    WHERE f.owner_sub = public.wm_owner() AND f.subject_id = wm_state_facts.subject
      AND f.superseded_at IS NULL AND f.status = 'active'
      AND f.valid @> wm_state_facts.valid_time
$fn$;

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

-- getEntity's aliases of `subject` valid at `at` (0080's lateral subquery: one array, NULL for none).
CREATE FUNCTION wm_entity_aliases(subject uuid, at timestamptz)
    RETURNS TABLE (aliases text[])
    LANGUAGE sql STABLE AS $fn$
    SELECT array_agg(al.alias ORDER BY al.namespace, al.alias)
    FROM public.entity_aliases al
    WHERE al.owner_sub = public.wm_owner() AND al.entity_id = wm_entity_aliases.subject AND al.superseded_at IS NULL
      AND al.valid_from <= wm_entity_aliases.at AND (al.valid_to IS NULL OR al.valid_to > wm_entity_aliases.at)
$fn$;

-- getEntity's current beliefs about `subject` both ways, at most `most` of each part (0080's lateral subquery).
CREATE FUNCTION wm_entity_facts(subject uuid, at timestamptz, most integer)
    RETURNS TABLE (part integer, id uuid, about_id uuid, subject_ref text, predicate text, functional boolean,
                   object_kind text, object_value jsonb, object_ref text, valid_from timestamptz, valid_to timestamptz,
                   recorded_at timestamptz, superseded_at timestamptz, observed_at timestamptz, status text,
                   source text, confidence real, scope_ref text, priority smallint, memory_type text, reason text,
                   evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql STABLE AS $fn$
    (SELECT 0 AS part, f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional,
            f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at,
            f.superseded_at, f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority,
            f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
     FROM public.facts f
     JOIN public.entities s ON s.id = f.subject_id
     LEFT JOIN public.entities o ON o.id = f.object_entity_id
     LEFT JOIN public.entities sc ON sc.id = f.scope_entity_id
     WHERE f.owner_sub = public.wm_owner() AND f.subject_id = wm_entity_facts.subject
       AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid @> wm_entity_facts.at
     ORDER BY f.predicate, f.valid_from, f.id
     LIMIT wm_entity_facts.most)
    UNION ALL
    (SELECT 1, f.id, f.object_entity_id, s.ref, f.predicate, f.functional, f.object_kind,
            f.object_value, o.ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
            f.observed_at, f.status, f.source, f.confidence, sc.ref, f.priority, f.memory_type,
            f.reason, f.evidence, f.supersedes_fact_id, f.run_id
     FROM public.facts f
     JOIN public.entities s ON s.id = f.subject_id
     JOIN public.entities o ON o.id = f.object_entity_id
     LEFT JOIN public.entities sc ON sc.id = f.scope_entity_id
     WHERE f.owner_sub = public.wm_owner() AND f.object_entity_id = wm_entity_facts.subject
       AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid @> wm_entity_facts.at
     ORDER BY f.predicate, f.valid_from, f.id
     LIMIT wm_entity_facts.most)
$fn$;

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

GRANT EXECUTE ON FUNCTION wm_state_facts(uuid, timestamptz), wm_entity_aliases(uuid, timestamptz),
    wm_entity_facts(uuid, timestamptz, integer) TO worldmem_app;

SET LOCAL ROLE worldmem_owner;

-- stateAsKnownAt: graph/sql/reads_state_known_at.sql's statement.
CREATE OR REPLACE FUNCTION wm_read_state_known_at(reader text, wanted text, system_time timestamptz, valid_time timestamptz)
    RETURNS TABLE (outcome text, via text, entity_id uuid, entity_ref text, entity_kind text, entity_name text, edge timestamptz, rolled_up boolean, rollups jsonb,
                   id uuid, predicate text, functional boolean, object_kind text, object_value jsonb, object_ref text,
                   valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz, superseded_at timestamptz,
                   observed_at timestamptz, status text, source text, confidence real, scope_ref text, priority smallint,
                   memory_type text, reason text, evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql AS $fn$
    SELECT public.wm_pin_reader(reader);
    SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
           r.canonical_name AS entity_name, n.edge, n.rolled_up, n.rollups,
           f.id, f.predicate, f.functional, f.object_kind, f.object_value, f.object_ref, f.valid_from, f.valid_to,
           f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence, f.scope_ref, f.priority,
           f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM wm_resolve(wanted, system_time::timestamptz, true) r
    LEFT JOIN LATERAL wm_notice_as_of(r.id, valid_time::timestamptz) n ON true
    LEFT JOIN LATERAL (
        SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
               f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
               s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
        FROM facts f
        LEFT JOIN entities o ON o.id = f.object_entity_id
        LEFT JOIN entities s ON s.id = f.scope_entity_id
        WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id
          AND f.believed AND wm_known(f.recorded_at, f.superseded_at, system_time::timestamptz)
          AND f.valid @> valid_time::timestamptz
    ) f ON true
    ORDER BY f.predicate, f.valid_from, f.id;
$fn$;
REVOKE EXECUTE ON FUNCTION wm_read_state_known_at(text, text, timestamptz, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_read_state_known_at(text, text, timestamptz, timestamptz) TO worldmem_app;

SET LOCAL ROLE worldmem_owner;

-- factHistory: graph/sql/reads_fact_history.sql's statement (`series` is the predicate).
CREATE OR REPLACE FUNCTION wm_read_fact_history(reader text, wanted text, series text)
    RETURNS TABLE (outcome text, via text, entity_id uuid, entity_ref text, entity_kind text, entity_name text, edge timestamptz, rollups jsonb,
                   id uuid, predicate text, functional boolean, object_kind text, object_value jsonb, object_ref text,
                   valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz, superseded_at timestamptz,
                   observed_at timestamptz, status text, source text, confidence real, scope_ref text, priority smallint,
                   memory_type text, reason text, evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql AS $fn$
    SELECT public.wm_pin_reader(reader);
    SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
           r.canonical_name AS entity_name, n.edge, n.rollups,
           f.id, f.predicate, f.functional, f.object_kind, f.object_value, f.object_ref, f.valid_from, f.valid_to,
           f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence, f.scope_ref, f.priority,
           f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM wm_resolve(wanted, NULL, false) r
    LEFT JOIN LATERAL wm_notice_series(r.id, series) n ON true
    LEFT JOIN LATERAL (
        SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
               f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
               s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
        FROM facts f
        LEFT JOIN entities o ON o.id = f.object_entity_id
        LEFT JOIN entities s ON s.id = f.scope_entity_id
        WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id AND f.predicate = series
    ) f ON true
    ORDER BY f.recorded_at, f.valid_from, f.id;
$fn$;
REVOKE EXECUTE ON FUNCTION wm_read_fact_history(text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_read_fact_history(text, text, text) TO worldmem_app;

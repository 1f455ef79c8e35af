-- batch_facts_insert: many fact rows in one statement, ids chosen by batch_new_ids (the buffered writer's).
-- %(rows)s is one JSON array of objects (graph/ledger/writer_buffered.py); object_value travels as JSON text
-- so a literal JSON null stays a jsonb 'null', as facts_replace stores it, and a relationship's stays SQL NULL.
INSERT INTO facts (
    id, subject_id, predicate, functional, object_kind, object_value, object_entity_id,
    valid_from, valid_to, recorded_at, observed_at, believed, source, source_trust_tier, changed_by,
    caused_by_event_id, confidence, memory_type, status, scope_entity_id, scope_kind, priority,
    supersedes_fact_id, run_id, op_index, evidence, reason
)
SELECT id, subject_id, predicate, functional, object_kind, object_value_text::jsonb, object_entity_id,
       valid_from, valid_to, recorded_at, observed_at, believed, source, source_trust_tier, changed_by,
       caused_by_event_id, confidence, memory_type, status, scope_entity_id, scope_kind, priority,
       supersedes_fact_id, run_id, op_index, evidence, reason
FROM jsonb_to_recordset(%(rows)s::jsonb) AS r(
    id uuid, subject_id uuid, predicate text, functional boolean, object_kind text, object_value_text text,
    object_entity_id uuid, valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz,
    observed_at timestamptz, believed boolean, source text, source_trust_tier smallint, changed_by text,
    caused_by_event_id uuid, confidence real, memory_type text, status text, scope_entity_id uuid,
    scope_kind text, priority smallint, supersedes_fact_id uuid, run_id text, op_index integer, evidence jsonb,
    reason text
)

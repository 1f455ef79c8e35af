-- sync_facts_insert: the fact rows of a sync, set-based: literal, unscoped and believed. A new value is
-- observed state from the integration (retention class `windowed`: the retention engine prunes and rolls
-- up that class); a piece split from an older row carries that row's provenance and class instead.
-- Columns: id, subject_id, predicate, valid_from.
INSERT INTO facts (subject_id, predicate, functional, object_kind, object_value, valid_from, valid_to,
                   recorded_at, observed_at, believed, source, source_trust_tier, changed_by, caused_by_event_id,
                   confidence, memory_type, status, supersedes_fact_id, retention_class, run_id, op_index,
                   evidence, reason)
SELECT r.subject_id, r.predicate, true, 'literal', r.object_value, r.valid_from, r.valid_to, %(at)s,
       r.observed_at, true, coalesce(r.source, %(source)s), coalesce(r.tier, %(tier)s),
       coalesce(r.changed_by, %(run_id)s), r.caused_by_event_id, r.confidence, r.memory_type, 'active',
       r.supersedes_fact_id, coalesce(r.retention_class, %(retention)s), %(run_id)s, r.op_index,
       coalesce(r.evidence, '{}'::jsonb), r.reason
FROM jsonb_to_recordset(%(rows)s::jsonb)
     AS r(subject_id uuid, predicate text, object_value jsonb, valid_from timestamptz, valid_to timestamptz,
          observed_at timestamptz, caused_by_event_id uuid, confidence real, supersedes_fact_id uuid,
          op_index int, evidence jsonb, source text, tier smallint, retention_class text, changed_by text,
          memory_type text, reason text)
RETURNING id, subject_id, predicate, valid_from

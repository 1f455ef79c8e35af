-- Columns: what FactView.from_row and the agent's Statement read (graph.reads.temporal), nothing more:
-- the generated columns (valid, value_tsv, value_text) and the bookkeeping ones cost decoding on every call.
SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
       f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
       s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
FROM facts f
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities s ON s.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner() AND f.subject_id = %(subject_id)s AND f.predicate = %(predicate)s
ORDER BY f.recorded_at, f.valid_from, f.id

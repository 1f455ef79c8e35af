INSERT INTO facts (
    subject_id, predicate, functional, object_kind, object_value, object_entity_id,
    valid_from, valid_to, recorded_at, observed_at, believed, source, source_trust_tier, changed_by,
    caused_by_event_id, confidence, memory_type, status, scope_entity_id, scope_kind, priority,
    supersedes_fact_id, run_id, op_index, evidence, reason
) VALUES (
    %(subject_id)s, %(predicate)s, %(functional)s, %(object_kind)s, %(object_value)s, %(object_entity_id)s,
    %(valid_from)s, %(valid_to)s, %(recorded_at)s, %(observed_at)s, %(believed)s, %(source)s,
    %(source_trust_tier)s, %(changed_by)s, %(caused_by_event_id)s, %(confidence)s, %(memory_type)s,
    %(status)s, %(scope_entity_id)s, %(scope_kind)s, %(priority)s, %(supersedes_fact_id)s, %(run_id)s,
    %(op_index)s, %(evidence)s, %(reason)s
)
RETURNING id

INSERT INTO suppression_markers (subject_id, predicate, value_key, scope_entity_id, fact_id, reason,
                                 recorded_at, run_id)
VALUES (%(subject_id)s, %(predicate)s, %(value_key)s, %(scope_id)s, %(fact_id)s, %(reason)s, %(at)s, %(run_id)s)
ON CONFLICT (owner_sub, subject_id, predicate, value_key,
             (coalesce(scope_entity_id, '00000000-0000-0000-0000-000000000000'::uuid)))
    WHERE lifted_at IS NULL
DO NOTHING
RETURNING id

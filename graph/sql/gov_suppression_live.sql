SELECT id, fact_id, reason, recorded_at
FROM suppression_markers
WHERE owner_sub = wm_owner() AND subject_id = %(subject_id)s AND predicate = %(predicate)s
  AND value_key = %(value_key)s AND scope_entity_id IS NOT DISTINCT FROM %(scope_id)s
  AND lifted_at IS NULL

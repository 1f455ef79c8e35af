UPDATE suppression_markers SET lifted_at = %(at)s, lifted_by_run_id = %(run_id)s
WHERE owner_sub = wm_owner() AND subject_id = %(subject_id)s AND predicate = %(predicate)s
  AND value_key = %(value_key)s AND scope_entity_id IS NOT DISTINCT FROM %(scope_id)s
  AND lifted_at IS NULL
RETURNING id

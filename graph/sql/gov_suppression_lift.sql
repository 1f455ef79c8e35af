UPDATE suppression_markers SET lifted_at = %(at)s, lifted_by_run_id = %(run_id)s
WHERE owner_sub = wm_owner() AND predicate = %(predicate)s
  AND value_key = %(value_key)s AND scope_entity_id IS NOT DISTINCT FROM %(scope_id)s
  AND lifted_at IS NULL
  AND (subject_id = %(subject_id)s
       OR subject_id IN (SELECT id FROM entities WHERE owner_sub = wm_owner() AND merged_into_id = %(subject_id)s))
RETURNING id

-- Live markers of one belief; a marker set on an entity since merged into the subject still holds.
SELECT id, fact_id, reason, recorded_at
FROM suppression_markers
WHERE owner_sub = wm_owner() AND predicate = %(predicate)s
  AND value_key = %(value_key)s AND scope_entity_id IS NOT DISTINCT FROM %(scope_id)s
  AND lifted_at IS NULL
  AND (subject_id = %(subject_id)s
       OR subject_id IN (SELECT id FROM entities WHERE owner_sub = wm_owner() AND merged_into_id = %(subject_id)s))

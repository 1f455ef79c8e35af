SELECT *
FROM facts
WHERE owner_sub = wm_owner() AND subject_id = %(subject_id)s AND predicate = %(predicate)s
  AND scope_entity_id IS NOT DISTINCT FROM %(scope_id)s
  AND superseded_at IS NULL AND status = 'active'
ORDER BY valid_from
FOR UPDATE

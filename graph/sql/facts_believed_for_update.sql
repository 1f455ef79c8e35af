SELECT *
FROM facts
WHERE owner_sub = wm_owner() AND subject_id = %(subject_id)s AND predicate = %(predicate)s
  AND scope_entity_id IS NOT DISTINCT FROM %(scope_id)s
  AND wm_believed(superseded_at) AND status = 'active'
ORDER BY valid_from
FOR UPDATE

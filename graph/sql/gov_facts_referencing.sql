SELECT *
FROM facts
WHERE owner_sub = wm_owner() AND superseded_at IS NULL AND status IN ('proposed', 'pending', 'active')
  AND (subject_id = %(id)s OR object_entity_id = %(id)s OR scope_entity_id = %(id)s)
ORDER BY recorded_at, valid_from, id
FOR UPDATE

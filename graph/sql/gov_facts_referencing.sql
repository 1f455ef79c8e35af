SELECT *
FROM facts
WHERE owner_sub = wm_owner() AND wm_believed(superseded_at) AND status IN ('proposed', 'pending', 'active')
  AND (subject_id = %(id)s OR object_entity_id = %(id)s OR scope_entity_id = %(id)s)
ORDER BY recorded_at, valid_from, id
FOR UPDATE

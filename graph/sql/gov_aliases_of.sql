SELECT id, entity_id, namespace, alias, valid_from, valid_to, source
FROM entity_aliases
WHERE owner_sub = wm_owner() AND entity_id = %(entity_id)s AND wm_believed(superseded_at)
ORDER BY recorded_at, id
FOR UPDATE

SELECT id, entity_id, namespace, alias, valid_from, valid_to, source
FROM entity_aliases
WHERE owner_sub = wm_owner() AND id = ANY(%(ids)s)
ORDER BY recorded_at, id

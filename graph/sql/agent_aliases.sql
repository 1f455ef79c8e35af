-- Believed aliases of a batch of entities, valid at %(at)s.
SELECT entity_id, alias, namespace
FROM entity_aliases
WHERE owner_sub = wm_owner() AND entity_id = ANY(%(ids)s) AND superseded_at IS NULL
  AND valid_from <= %(at)s AND (valid_to IS NULL OR valid_to > %(at)s)
ORDER BY entity_id, namespace, alias

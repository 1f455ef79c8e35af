SELECT id, entity_id FROM entity_aliases
WHERE owner_sub = wm_owner() AND namespace = %(namespace)s AND alias_norm = lower(%(alias)s)
  AND wm_believed(superseded_at)

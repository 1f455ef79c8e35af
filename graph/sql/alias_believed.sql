-- The believed rows of one alias in a namespace (at most one per instant of valid time: migration 0131).
-- Columns: id, entity_id, valid_from, valid_to.
SELECT id, entity_id, valid_from, valid_to FROM entity_aliases
WHERE owner_sub = wm_owner() AND namespace = %(namespace)s AND alias_norm = lower(%(alias)s)
  AND wm_believed(superseded_at)

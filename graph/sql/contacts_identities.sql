-- Identity aliases (every namespace but core, name and chat:*) of a batch of entities, valid at world time
-- %(valid_time)s as believed at system time %(system_time)s (NULL = now), through wm_during / wm_known
-- (migration 0015). Columns: entity_id, namespace, alias, valid_from, valid_to, recorded_at, source.
SELECT a.entity_id, a.namespace, a.alias, a.valid_from, a.valid_to, a.recorded_at, a.source
FROM entity_aliases a
WHERE a.owner_sub = wm_owner() AND a.entity_id = ANY(%(ids)s)
  AND a.namespace NOT IN ('core', 'name') AND a.namespace NOT LIKE 'chat:%%'
  AND wm_known(a.recorded_at, a.superseded_at, %(system_time)s::timestamptz)
  AND wm_during(a.valid_from, a.valid_to, %(valid_time)s::timestamptz)
ORDER BY a.entity_id, a.namespace, a.alias_norm

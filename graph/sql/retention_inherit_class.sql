-- retention_inherit_class: a row the committer split off a windowed row (what is left of it before or after
-- a new value: supersedes_fact_id names the row it came from) is inserted with the default class; it is the
-- same feed's observation (same source, never the user's), so it is windowed too. One level per call: the
-- job repeats it until nothing changes. Uses facts_windowed and facts_supersedes (0007).
UPDATE facts f SET retention_class = 'windowed'
FROM facts o
WHERE o.owner_sub = wm_owner() AND o.retention_class = 'windowed'
  AND f.supersedes_fact_id = o.id AND f.owner_sub = wm_owner()
  AND f.retention_class = 'standard' AND f.source = o.source AND f.source <> 'user'
  AND f.memory_type IS NULL AND f.reason IS NULL

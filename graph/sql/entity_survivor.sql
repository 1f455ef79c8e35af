-- The entity %(id)s stood for at system time %(system_time)s (now when NULL): the end of its merge
-- chain as of that time (wm_survivor, graph/sql/functions/).
SELECT id, ref, kind, canonical_name, status, merged_into_id, created_at
FROM entities WHERE owner_sub = wm_owner() AND id = wm_survivor(%(id)s, %(system_time)s::timestamptz)

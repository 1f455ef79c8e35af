-- The entity each of %(ids)s stood for at system time %(system_time)s (now when NULL), where that is
-- another one: the end of its merge chain as of then (wm_survivor, migrations/0015_as_of.sql).
SELECT x.id AS start_id, e.id, e.ref, e.kind, e.canonical_name AS name
FROM unnest(%(ids)s::uuid[]) AS x (id)
JOIN entities e ON e.id = wm_survivor(x.id, %(system_time)s::timestamptz)
WHERE e.owner_sub = wm_owner() AND e.id <> x.id

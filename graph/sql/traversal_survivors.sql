-- The entity each of %(ids)s stood for at system time %(system_time)s (now when NULL), where that is
-- another one: the end of its merge chain as of then (wm_survivor, graph/sql/functions/).
-- The survivor id is computed in a MATERIALIZED step and joined as a plain column: wm_survivor is not
-- leakproof, so a join condition calling it would run after the RLS policy (a sequential scan).
WITH resolved AS MATERIALIZED (
    SELECT x.id AS start_id, wm_survivor(x.id, %(system_time)s::timestamptz) AS survivor_id
    FROM unnest(%(ids)s::uuid[]) AS x (id)
)
SELECT r.start_id, e.id, e.ref, e.kind, e.canonical_name AS name
FROM resolved r
JOIN entities e ON e.id = r.survivor_id
WHERE e.owner_sub = wm_owner() AND e.id <> r.start_id

-- The entities projections point at, as the ledger has them now: a merged one stands for its survivor
-- (wm_survivor, computed in a MATERIALIZED step as in agent_find_entity.sql). %(kind)s (NULL: any).
-- Returns: source_id, id, ref, kind, name
WITH resolved AS MATERIALIZED (
    SELECT e.id AS source_id, CASE WHEN e.merged_into_id IS NULL THEN e.id ELSE wm_survivor(e.id, NULL) END AS survivor_id
    FROM entities e
    WHERE e.owner_sub = wm_owner() AND e.id = ANY(%(ids)s::uuid[])
)
SELECT r.source_id, s.id, s.ref, s.kind, s.canonical_name AS name
FROM resolved r
JOIN entities s ON s.id = r.survivor_id
WHERE %(kind)s::text IS NULL OR s.kind = %(kind)s::text

-- The survivor at the end of each merge chain starting at %(ids)s.
WITH RECURSIVE chain (start_id, id, merged_into_id, hops) AS (
    SELECT id, id, merged_into_id, 0 FROM entities
    WHERE owner_sub = wm_owner() AND id = ANY(%(ids)s)
    UNION ALL
    SELECT c.start_id, e.id, e.merged_into_id, c.hops + 1
    FROM chain c JOIN entities e ON e.id = c.merged_into_id
    WHERE e.owner_sub = wm_owner() AND c.hops < 16
)
SELECT c.start_id, e.id, e.ref, e.kind, e.canonical_name AS name
FROM chain c JOIN entities e ON e.id = c.id
WHERE c.merged_into_id IS NULL

-- Entities merged (possibly through a chain) into any of %(ids)s: their edges belong to the survivor.
WITH RECURSIVE merged (id, survivor, hops) AS (
    SELECT id, merged_into_id, 1 FROM entities
    WHERE owner_sub = wm_owner() AND merged_into_id = ANY(%(ids)s)
    UNION ALL
    SELECT e.id, m.survivor, m.hops + 1
    FROM entities e JOIN merged m ON e.merged_into_id = m.id
    WHERE e.owner_sub = wm_owner() AND m.hops < 16
)
SELECT id, survivor FROM merged

-- Entities whose merged_into_id disagrees with their open merge (entity_merges without split_at): the
-- ref resolution (wm_resolve) follows merged_into_id while a split reads the merge row, so the two must
-- name the same survivor, and an entity has at most one open merge. Columns: owner_sub, ref, entity_says,
-- merges_say (comma-separated survivors of its open merges, NULL for none).
SELECT e.owner_sub, e.ref, e.merged_into_id::text AS entity_says,
       string_agg(m.into_id::text, ',' ORDER BY m.recorded_at) AS merges_say
FROM entities e
LEFT JOIN entity_merges m ON m.owner_sub = e.owner_sub AND m.merged_id = e.id AND m.split_at IS NULL
GROUP BY e.owner_sub, e.ref, e.merged_into_id
HAVING count(m.id) > 1 OR e.merged_into_id IS DISTINCT FROM (array_agg(m.into_id))[1]
ORDER BY 1, 2
LIMIT 100

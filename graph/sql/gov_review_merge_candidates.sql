-- Pairs of active entities of one kind whose names are alike but not the same (trigram similarity in
-- [low, high]). Only the most recently touched entities are compared, so the cost stays bounded.
WITH recent AS (
    SELECT e.id, e.kind, e.canonical_name
    FROM entities e
    JOIN entity_kinds k ON k.key = e.kind
    WHERE e.owner_sub = wm_owner() AND e.status = 'active' AND NOT k.privileged AND e.kind <> ALL(%(skip_kinds)s)
    ORDER BY e.updated_at DESC, e.id
    LIMIT %(recent)s
)
SELECT a.id AS a_id, a.ref AS a_ref, a.canonical_name AS a_name, a.created_at AS a_created,
       b.id AS b_id, b.ref AS b_ref, b.canonical_name AS b_name, b.created_at AS b_created,
       a.kind, similarity(a.canonical_name, b.canonical_name) AS similarity
FROM recent r
JOIN entities a ON a.id = r.id
JOIN entities b ON b.owner_sub = a.owner_sub AND b.kind = a.kind AND b.status = 'active' AND b.id <> a.id
WHERE similarity(a.canonical_name, b.canonical_name) BETWEEN %(low)s AND %(high)s
  AND lower(a.canonical_name) <> lower(b.canonical_name)
  -- A pair the owner split after merging it is known to be two things.
  AND NOT EXISTS (SELECT 1 FROM entity_merges m
                  WHERE m.owner_sub = a.owner_sub AND m.split_at IS NOT NULL
                    AND ((m.merged_id, m.into_id) = (a.id, b.id) OR (m.merged_id, m.into_id) = (b.id, a.id)))
ORDER BY similarity DESC, a.id, b.id
LIMIT %(limit)s

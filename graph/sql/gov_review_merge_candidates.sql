-- Pairs of active entities of one kind whose names are alike but not the same (trigram similarity in
-- [low, high]). The trigram operator prefilters at pg_trgm.similarity_threshold (0.3 by default) through
-- the trigram index on names; it is LEAKPROOF since 0008, so the index works under RLS. Only the most
-- recently touched entities are compared, each with its five most alike.
-- Columns: graph/governance/review_rows.py MergeCandidate.
WITH recent AS (
    SELECT e.id, e.kind, e.canonical_name, e.ref, e.created_at
    FROM entities e
    JOIN entity_kinds k ON k.key = e.kind
    WHERE e.owner_sub = wm_owner() AND e.status = 'active' AND NOT k.privileged AND e.kind <> ALL(%(skip_kinds)s)
    ORDER BY e.updated_at DESC, e.id
    LIMIT %(recent)s
)
SELECT r.id AS a_id, r.ref AS a_ref, r.canonical_name AS a_name, r.created_at AS a_created,
       b.id AS b_id, b.ref AS b_ref, b.canonical_name AS b_name, b.created_at AS b_created,
       r.kind, b.similarity
FROM recent r
CROSS JOIN LATERAL (
    SELECT c.id, c.ref, c.canonical_name, c.created_at, similarity(c.canonical_name, r.canonical_name) AS similarity
    FROM entities c
    WHERE c.owner_sub = wm_owner() AND c.canonical_name %% r.canonical_name
      AND c.kind = r.kind AND c.status = 'active' AND c.id <> r.id
      AND lower(c.canonical_name) <> lower(r.canonical_name)
    ORDER BY similarity DESC, c.id
    LIMIT 5
) b
WHERE b.similarity BETWEEN %(low)s AND %(high)s
  -- A pair the owner split after merging it is known to be two things.
  AND NOT EXISTS (SELECT 1 FROM entity_merges m
                  WHERE m.owner_sub = wm_owner() AND m.split_at IS NOT NULL
                    AND ((m.merged_id, m.into_id) = (r.id, b.id) OR (m.merged_id, m.into_id) = (b.id, r.id)))
  -- A pair the owner dismissed ("no, not the same") is never suggested again.
  AND NOT EXISTS (SELECT 1 FROM merge_dismissals d
                  WHERE d.owner_sub = wm_owner()
                    AND (d.low_id, d.high_id) = (least(r.id, b.id), greatest(r.id, b.id)))
ORDER BY b.similarity DESC, r.id, b.id
LIMIT %(limit)s

-- Open contact merge suggestions in the shape of gov_review_merge_candidates.sql (a_*, b_*, kind,
-- similarity = 1): both persons still active, the pair neither dismissed nor merged-and-split.
SELECT a.id AS a_id, a.ref AS a_ref, a.canonical_name AS a_name, a.created_at AS a_created,
       b.id AS b_id, b.ref AS b_ref, b.canonical_name AS b_name, b.created_at AS b_created,
       a.kind, 1.0::real AS similarity, s.signal, s.detail
FROM contact_merge_suggestions s
JOIN entities a ON a.owner_sub = wm_owner() AND a.id = s.low_id AND a.status = 'active'
JOIN entities b ON b.owner_sub = wm_owner() AND b.id = s.high_id AND b.status = 'active'
WHERE s.owner_sub = wm_owner()
  -- plain equalities (not row comparisons or an OR), so each probe is an index condition
  AND NOT EXISTS (SELECT 1 FROM merge_dismissals d
                  WHERE d.owner_sub = wm_owner() AND d.low_id = s.low_id AND d.high_id = s.high_id)
  AND NOT EXISTS (SELECT 1 FROM entity_merges m
                  WHERE m.owner_sub = wm_owner() AND m.merged_id = s.low_id AND m.into_id = s.high_id
                    AND m.split_at IS NOT NULL)
  AND NOT EXISTS (SELECT 1 FROM entity_merges m
                  WHERE m.owner_sub = wm_owner() AND m.merged_id = s.high_id AND m.into_id = s.low_id
                    AND m.split_at IS NOT NULL)
ORDER BY s.recorded_at, s.id
LIMIT %(limit)s

-- Columns: graph/governance/merge.py MergeRecord.
SELECT m.id, a.ref AS merged_ref, b.ref AS into_ref, m.reason, m.recorded_at, m.split_at
FROM entity_merges m
JOIN entities a ON a.id = m.merged_id
JOIN entities b ON b.id = m.into_id
WHERE m.owner_sub = wm_owner() AND (m.run_id = %(run_id)s OR m.split_run_id = %(run_id)s)
ORDER BY m.recorded_at, m.id

-- Columns: graph/governance/split.py Merge.
SELECT id, merged_id, into_id, previous_status, split_at
FROM entity_merges
WHERE owner_sub = wm_owner() AND merged_id = %(merged_id)s AND split_at IS NULL
FOR UPDATE

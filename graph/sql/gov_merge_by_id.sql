-- Columns: graph/governance/split.py Merge.
SELECT id, merged_id, into_id, previous_status, split_at
FROM entity_merges
WHERE owner_sub = wm_owner() AND id = %(id)s
FOR UPDATE

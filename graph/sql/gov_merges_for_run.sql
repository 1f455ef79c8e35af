SELECT m.id, m.merged_id, m.into_id, m.reason, m.recorded_at, m.run_id, m.event_id, m.split_at, m.split_run_id,
       a.ref AS merged_ref, b.ref AS into_ref
FROM entity_merges m
JOIN entities a ON a.id = m.merged_id
JOIN entities b ON b.id = m.into_id
WHERE m.owner_sub = wm_owner() AND (m.run_id = %(run_id)s OR m.split_run_id = %(run_id)s)
ORDER BY m.recorded_at, m.id

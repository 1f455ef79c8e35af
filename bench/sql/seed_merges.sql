-- The audit rows of the seeded merges: merges carry their own system time, and reads as of a system time
-- (wm_survivor, traversal_merged_sources_at) follow entity_merges, so every merged entity has its row,
-- recorded at the seed time, with one of the owner's events standing in for the governance event.
INSERT INTO entity_merges (owner_sub, merged_id, into_id, previous_status, reason, recorded_at, run_id, event_id)
SELECT e.owner_sub, e.id, e.merged_into_id, 'active', 'bench seed', %(t0)s, 'bench-seed',
       (SELECT w.id FROM world_events w WHERE w.owner_sub = %(owner)s ORDER BY w.id LIMIT 1)
FROM entities e
WHERE e.owner_sub = %(owner)s AND e.merged_into_id IS NOT NULL

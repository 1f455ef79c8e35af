-- Run ids of the owner for "did you mean" after an unknown runId: the most recent proposals' run ids
-- and events' correlation ids (primary key / index (owner_sub, occurred_at) ordered scans, bounded).
-- Columns: run_id.
(SELECT run_id FROM proposals WHERE owner_sub = wm_owner() ORDER BY recorded_at DESC LIMIT %(limit)s)
UNION
(SELECT correlation_id FROM world_events
 WHERE owner_sub = wm_owner() AND correlation_id IS NOT NULL ORDER BY occurred_at DESC LIMIT %(limit)s)

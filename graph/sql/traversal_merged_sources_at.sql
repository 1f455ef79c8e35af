-- Entities merged (possibly through a chain) into any of %(ids)s as known at system time %(system_time)s:
-- merges carry their own system time (entity_merges, wm_known in graph/sql/functions/). Believed
-- now is traversal_merged_sources (entities.merged_into_id, equal to the open merges).
WITH RECURSIVE merged (id, survivor, hops) AS (
    SELECT merged_id, into_id, 1 FROM entity_merges
    WHERE owner_sub = wm_owner() AND into_id = ANY(%(ids)s)
      AND wm_known(recorded_at, split_at, %(system_time)s::timestamptz)
    UNION ALL
    SELECT m.merged_id, g.survivor, g.hops + 1
    FROM entity_merges m JOIN merged g ON m.into_id = g.id
    WHERE m.owner_sub = wm_owner() AND g.hops < 16
      AND wm_known(m.recorded_at, m.split_at, %(system_time)s::timestamptz)
)
SELECT id, survivor FROM merged

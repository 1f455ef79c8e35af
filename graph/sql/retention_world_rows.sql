-- retention_world_rows: the events of one series (as retention_world_series), locked against a change
-- between the rollup and the prune. Columns: id, occurred_at, summary.
SELECT w.id, w.occurred_at, coalesce(w.summary, '') AS summary
FROM world_events w
WHERE w.owner_sub = wm_owner() AND w.id IN (
    SELECT u.id FROM retention_unheld_events u
    WHERE u.owner_sub = wm_owner() AND u.occurred_at < %(edge)s AND u.event_type = %(event_type)s
      AND u.target_entity_id IS NOT DISTINCT FROM %(target_entity_id)s
      AND u.occurred_at >= %(month_start)s AND u.occurred_at < %(month_end)s)
ORDER BY w.occurred_at, w.id
FOR UPDATE OF w

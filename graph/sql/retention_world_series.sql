-- retention_world_series: the owner's windowed world events behind edge %(edge)s that nothing depends on
-- (retention_unheld_events, 0044), counted per (event type, target, UTC month): one rollup and prune each.
-- Columns: event_type, target_entity_id, label, month, n.
SELECT u.event_type, u.target_entity_id, coalesce(e.canonical_name || ' (' || e.ref || ')', '') AS label,
       date_trunc('month', u.occurred_at AT TIME ZONE 'UTC')::date AS month, count(*) AS n
FROM retention_unheld_events u
LEFT JOIN entities e ON e.id = u.target_entity_id
WHERE u.owner_sub = wm_owner() AND u.occurred_at < %(edge)s
GROUP BY u.event_type, u.target_entity_id, e.canonical_name, e.ref, 4
ORDER BY u.event_type, label, 4

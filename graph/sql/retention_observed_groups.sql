-- retention_observed_groups: the owner's observed events of one month, grouped by (type, target, summary):
-- what the month's event rollups are computed from (partition pruning on occurred_at).
-- Columns: event_type, target_entity_id, label, summary, n, first, last.
SELECT o.event_type, o.target_entity_id, coalesce(e.canonical_name || ' (' || e.ref || ')', '') AS label,
       coalesce(o.summary, '') AS summary, count(*) AS n, min(o.occurred_at) AS first, max(o.occurred_at) AS last
FROM observed_events o
LEFT JOIN entities e ON e.id = o.target_entity_id
WHERE o.owner_sub = wm_owner() AND o.occurred_at >= %(month_start)s AND o.occurred_at < %(month_end)s
GROUP BY o.event_type, o.target_entity_id, e.canonical_name, e.ref, o.summary
ORDER BY o.event_type, o.target_entity_id, o.summary

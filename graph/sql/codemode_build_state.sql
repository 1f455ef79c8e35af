-- The latest build and test results of repos (%(refs)s): per repo, event type and suite the newest
-- windowed `build_result` / `test_result` event that occurred in [%(since)s, %(at)s]. Build and test state
-- lives only here (windowed world events), never as facts.
-- Columns: id, occurred_at, event_type, summary, target (the repo's ref), payload (status, suite, commit,
-- branch). Index: world_events_target (owner_sub, target_entity_id, occurred_at DESC), migration 0033.
SELECT DISTINCT ON (w.target_entity_id, w.event_type, w.payload ->> 'suite')
       w.id, w.occurred_at, w.event_type, w.summary, t.ref AS target, w.payload
FROM entities t
JOIN world_events w ON w.owner_sub = wm_owner() AND w.target_entity_id = t.id
WHERE t.owner_sub = wm_owner() AND t.ref = ANY(%(refs)s)
  AND w.retention_class = 'windowed' AND w.event_type IN ('build_result', 'test_result')
  AND w.occurred_at >= %(since)s AND w.occurred_at <= %(at)s
ORDER BY w.target_entity_id, w.event_type, w.payload ->> 'suite', w.occurred_at DESC, w.id DESC
LIMIT %(limit)s

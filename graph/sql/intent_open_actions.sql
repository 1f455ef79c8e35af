-- Actions the reconciler looks at again: an expected effect, not fulfilled, within the horizon.
SELECT id, occurred_at, correlation_id, expected_effect, intent_outcome
FROM world_events
WHERE owner_sub = wm_owner() AND expected_effect IS NOT NULL
  AND intent_outcome IS DISTINCT FROM 'fulfilled'
  AND occurred_at >= %(since)s AND occurred_at <= %(now)s
ORDER BY occurred_at
LIMIT %(limit)s

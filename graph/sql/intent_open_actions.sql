-- Actions the reconciler looks at again: an expected effect, not fulfilled (with open_only: not judged
-- at all yet), within the horizon; one keyset page at a time, oldest first.
SELECT id, occurred_at, correlation_id, expected_effect, intent_outcome
FROM world_events
WHERE owner_sub = wm_owner() AND expected_effect IS NOT NULL
  AND intent_outcome IS DISTINCT FROM 'fulfilled' AND (intent_outcome IS NULL OR NOT %(open_only)s)
  AND occurred_at >= %(since)s AND occurred_at <= %(now)s
  AND (occurred_at, id) > (%(after_at)s, %(after_id)s)
ORDER BY occurred_at, id
LIMIT %(limit)s

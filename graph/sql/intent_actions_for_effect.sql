-- Actions whose outcome a fact caused by the given event may change: the event itself and its causes
-- (climbing direct and trigger links only), and earlier actions of its correlation, that expect an
-- effect on the fact's predicate and are not fulfilled yet.
WITH RECURSIVE up (id, caused_by, kind, hops) AS (
    SELECT id, caused_by_event_id, causation_kind, 0 FROM world_events
    WHERE owner_sub = wm_owner() AND id = %(event_id)s
    UNION ALL
    SELECT e.id, e.caused_by_event_id, e.causation_kind, u.hops + 1
    FROM world_events e JOIN up u ON e.id = u.caused_by
    WHERE e.owner_sub = wm_owner() AND u.kind IN ('direct', 'trigger') AND u.hops < 16
), effect AS (
    SELECT correlation_id, occurred_at, causation_kind FROM world_events
    WHERE owner_sub = wm_owner() AND id = %(event_id)s
)
SELECT w.id, w.occurred_at, w.correlation_id, w.expected_effect, w.intent_outcome
FROM world_events w
WHERE w.owner_sub = wm_owner() AND w.expected_effect IS NOT NULL
  AND w.intent_outcome IS DISTINCT FROM 'fulfilled' AND w.expected_effect ->> 'predicate' = %(predicate)s
  AND w.id IN (SELECT id FROM up)
UNION
SELECT w.id, w.occurred_at, w.correlation_id, w.expected_effect, w.intent_outcome
FROM world_events w, effect x
WHERE w.owner_sub = wm_owner() AND w.expected_effect IS NOT NULL
  AND w.intent_outcome IS DISTINCT FROM 'fulfilled' AND w.expected_effect ->> 'predicate' = %(predicate)s
  AND x.causation_kind IS DISTINCT FROM 'inferred'
  AND w.correlation_id = x.correlation_id AND w.occurred_at <= x.occurred_at

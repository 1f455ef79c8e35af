SELECT count(*) AS n FROM world_events
WHERE owner_sub = wm_owner() AND expected_effect IS NOT NULL AND intent_outcome IS DISTINCT FROM 'fulfilled'
  AND occurred_at >= %(since)s

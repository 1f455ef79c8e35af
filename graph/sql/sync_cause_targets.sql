-- sync_cause_targets: which of a batch's target entities an agent action may have caused a change of: a
-- consequential event within the horizon on the entity itself or on an entity sharing its external id.
-- A cheap superset filter; graph.reads.causality.stamp (causality_sync_candidate.sql) then decides each
-- one. Columns: id.
WITH acted AS (
    SELECT DISTINCT w.target_entity_id AS id
    FROM world_events w
    JOIN event_types k ON k.key = w.event_type AND k.consequential
    WHERE w.owner_sub = wm_owner() AND w.occurred_at >= %(since)s AND w.occurred_at <= %(until)s
      AND w.target_entity_id IS NOT NULL
)
SELECT t.id
FROM entities t
WHERE t.owner_sub = wm_owner() AND t.id = ANY(%(ids)s::uuid[])
  AND (t.id IN (SELECT id FROM acted)
       OR (t.external_id IS NOT NULL AND EXISTS (
              SELECT 1 FROM entities o JOIN acted a ON a.id = o.id
              WHERE o.owner_sub = wm_owner() AND o.external_id = t.external_id)))

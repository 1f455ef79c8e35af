-- retention_observed_insert: observations, set-based, answered in input order. Only event types whose
-- registry class is windowed are inserted (graph.retention.observed.record checks them first); a row whose
-- (external_ref, occurred_at) the owner already holds is skipped: a retried call (index 0063).
-- Columns: ord (1..n, the input's order), id (NULL when skipped).
WITH input AS MATERIALIZED (
    SELECT uuidv7() AS id, u.*
    FROM unnest(%(event_type)s::text[], %(occurred_at)s::timestamptz[], %(target_entity_id)s::uuid[],
                %(source)s::text[], %(external_ref)s::text[], %(payload)s::jsonb[], %(summary)s::text[])
         WITH ORDINALITY AS u (event_type, occurred_at, target_entity_id, source, external_ref, payload, summary, ord)
), written AS (
    INSERT INTO observed_events (id, event_type, occurred_at, target_entity_id, source, external_ref, payload,
                                 summary)
    SELECT i.id, i.event_type, i.occurred_at, i.target_entity_id, i.source, i.external_ref, i.payload, i.summary
    FROM input i
    JOIN event_types t ON t.key = i.event_type AND t.retention_class = 'windowed'
    ORDER BY i.ord
    ON CONFLICT (owner_sub, external_ref, occurred_at) WHERE external_ref IS NOT NULL DO NOTHING
    RETURNING id
)
SELECT i.ord, w.id FROM input i LEFT JOIN written w ON w.id = i.id ORDER BY i.ord

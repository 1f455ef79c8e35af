-- sync_events_insert: one integration_sync world event per created or changed entry, set-based.
-- Columns: id, op_index.
INSERT INTO world_events (event_type, occurred_at, observed_at, recorded_at, target_entity_id, caused_by_event_id,
                          correlation_id, causation_kind, run_id, payload, summary, op_index)
SELECT 'integration_sync', r.occurred_at, r.occurred_at, %(at)s, r.target_entity_id, r.caused_by_event_id,
       r.correlation_id, r.causation_kind, %(run_id)s, r.payload, r.summary, r.op_index
FROM jsonb_to_recordset(%(rows)s::jsonb)
     AS r(occurred_at timestamptz, target_entity_id uuid, caused_by_event_id uuid, correlation_id text,
          causation_kind text, payload jsonb, summary text, op_index int)
RETURNING id, op_index

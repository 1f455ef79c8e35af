-- bench.retention_bench: %(n)s observed events of the bench owner in the month of %(month)s (its partition
-- exists: wm_observed_partition), spread over the sensors.
INSERT INTO observed_events (owner_sub, event_type, occurred_at, recorded_at, target_entity_id, source, summary)
SELECT %(owner)s, 'observation', %(month)s::timestamptz + (i %% 2592000) * interval '1 second',
       %(month)s::timestamptz, (SELECT id FROM entities WHERE owner_sub = %(owner)s AND ref = 'device:sensor-' || (1 + i %% 20)),
       'integration:bench', CASE WHEN i %% 3 = 0 THEN 'motion' ELSE 'no motion' END
FROM generate_series(1, %(n)s) AS i

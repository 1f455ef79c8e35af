-- bench.retention_bench: %(n)s device entities of the bench owner (as the admin: no RLS, owner explicit).
INSERT INTO entities (owner_sub, ref, kind, canonical_name, created_at, updated_at)
SELECT %(owner)s, 'device:sensor-' || i, 'device', 'Sensor ' || i, %(start)s, %(start)s
FROM generate_series(1, %(n)s) AS i

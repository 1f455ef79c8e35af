-- bench.retention_bench: hourly readings of every sensor from %(start)s for %(hours)s hours, the way the
-- committer leaves a functional feed: per reading the believed row [t, t+1h) and the open row [t, ∞) it
-- replaced, superseded one hour later. Windowed, from an integration.
INSERT INTO facts (owner_sub, subject_id, predicate, functional, object_kind, object_value, valid_from, valid_to,
                   recorded_at, superseded_at, believed, source, confidence, status, retention_class, run_id)
SELECT %(owner)s, e.id, 'temperature', true, 'literal',
       to_jsonb(round((20 + 3 * sin(h * pi() / 12))::numeric, 1)),
       x.t, CASE WHEN open THEN NULL ELSE x.t + interval '1 hour' END,
       x.t, CASE WHEN open THEN x.t + interval '1 hour' END, true, 'integration:bench', 1,
       CASE WHEN open THEN 'superseded' ELSE 'active' END, 'windowed', 'bench'
FROM entities e
CROSS JOIN generate_series(0, %(hours)s - 1) AS h
CROSS JOIN LATERAL (SELECT %(start)s::timestamptz + h * interval '1 hour' AS t) AS x
CROSS JOIN (VALUES (false), (true)) AS o (open)
WHERE e.owner_sub = %(owner)s AND e.kind = 'device'

-- bench.erase_bench: %(n)s fact rows of the entity %(ref)s, the way the committer leaves a functional feed of
-- readings: per reading the believed row [t, t+1h) and the open row [t, ∞) it replaced, superseded an hour
-- later (so half of the rows are history). Literal values: the AGE mirror holds no edge for them.
INSERT INTO facts (owner_sub, subject_id, predicate, functional, object_kind, object_value, valid_from, valid_to,
                   recorded_at, superseded_at, believed, source, confidence, status, run_id)
SELECT %(owner)s, e.id, 'birthday', true, 'literal', to_jsonb('reading ' || h),
       x.t, CASE WHEN open THEN NULL ELSE x.t + interval '1 hour' END,
       x.t, CASE WHEN open THEN x.t + interval '1 hour' END, true, 'user', 1,
       CASE WHEN open THEN 'superseded' ELSE 'active' END, 'bench'
FROM entities e
CROSS JOIN generate_series(0, %(n)s / 2 - 1) AS h
CROSS JOIN LATERAL (SELECT '2020-01-01T00:00:00Z'::timestamptz + h * interval '1 hour' AS t) AS x
CROSS JOIN (VALUES (false), (true)) AS o (open)
WHERE e.owner_sub = %(owner)s AND e.ref = %(ref)s

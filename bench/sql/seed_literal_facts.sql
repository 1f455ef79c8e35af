-- Seven literal facts per entity: name; status with valid-time history (draft, then active, the latter
-- caused by a test result event and replacing a superseded 'unknown' belief); description; two e-mails.
WITH rows AS (
    SELECT uuidv7() AS id, e.id AS subject_id, e.i, g.n, v.id AS event_id
    FROM bench.ent e
    CROSS JOIN generate_series(0, 6) AS g(n)
    LEFT JOIN bench.ev v ON v.owner = e.owner AND g.n = 2
        AND v.k = 1 + mod((e.i - 1) / 2, %(runs)s) AND v.slot = 2 + mod(e.i, 2)
    WHERE e.owner = %(owner)s
), linked AS (
    SELECT rows.*, CASE WHEN n = 2 THEN lead(id) OVER (PARTITION BY subject_id ORDER BY n) END AS supersedes
    FROM rows
)
INSERT INTO facts (id, owner_sub, subject_id, predicate, functional, object_kind, object_value, valid_from,
                   valid_to, recorded_at, superseded_at, believed, source, confidence, status, run_id,
                   caused_by_event_id, supersedes_fact_id, evidence)
SELECT l.id, %(owner)s, l.subject_id, x.predicate, x.predicate <> 'email', 'literal', x.value, x.valid_from,
       x.valid_to, x.recorded_at, x.superseded_at, true, 'user', 1.0,
       CASE WHEN x.superseded_at IS NULL THEN 'active' ELSE 'superseded' END, 'bench-seed',
       l.event_id, l.supersedes, '{"kind": "seed", "text": "generated"}'::jsonb
FROM linked l
CROSS JOIN LATERAL (
    SELECT (ARRAY['name', 'status', 'status', 'status', 'description', 'email', 'email'])[l.n + 1] AS predicate,
           (ARRAY[to_jsonb('Entity ' || l.i), '"draft"', '"active"', '"unknown"',
                  to_jsonb('Generated entity number ' || l.i), to_jsonb('e' || l.i || '@example.org'),
                  to_jsonb('e' || l.i || '@work.example.org')])[l.n + 1] AS value,
           CASE l.n WHEN 1 THEN %(t0)s - interval '400 days' WHEN 2 THEN %(t0)s - interval '100 days'
                    WHEN 3 THEN %(t0)s - interval '400 days' ELSE %(t0)s - interval '500 days' END AS valid_from,
           CASE l.n WHEN 1 THEN %(t0)s - interval '100 days' END AS valid_to,
           CASE l.n WHEN 2 THEN %(t0)s - interval '100 days' ELSE %(t0)s - interval '400 days' END AS recorded_at,
           CASE l.n WHEN 3 THEN %(t0)s - interval '100 days' END AS superseded_at
) AS x

-- Three relationship facts per entity (distinct predicates, so functional ones never overlap), each
-- mirrored as a REL edge. One in ten has a closed valid time, one in twenty was superseded.
WITH src AS MATERIALIZED (
    SELECT uuidv7() AS id, row_number() OVER () AS n, s.id AS subject_id, s.gid AS sgid, o.id AS object_id,
           o.gid AS ogid,
           (ARRAY['owns', 'works_on', 'member_of', 'part_of', 'located_in', 'knows', 'blocked_by',
                  'tests'])[1 + mod(s.i + j, 8)] AS predicate,
           %(t0)s - make_interval(days => 1 + mod(s.i, 900)) AS valid_from,
           mod(s.i + j, 10) = 3 AS closed, mod(s.i + j, 20) = 7 AS superseded
    FROM bench.ent s
    CROSS JOIN generate_series(0, 2) AS j
    JOIN bench.ent o ON o.owner = s.owner
        AND o.i = CASE WHEN 1 + mod(abs(hashint4(s.i * 3 + j)), %(n)s) = s.i THEN 1 + mod(s.i, %(n)s)
                       ELSE 1 + mod(abs(hashint4(s.i * 3 + j)), %(n)s) END
    WHERE s.owner = %(owner)s
), rows AS (
    SELECT src.*, CASE WHEN closed THEN valid_from + interval '20 days' END AS valid_to,
           CASE WHEN superseded THEN valid_from + interval '5 days' END AS superseded_at,
           CASE WHEN superseded THEN 'superseded' ELSE 'active' END AS status
    FROM src
), ins AS (
    INSERT INTO facts (id, owner_sub, subject_id, predicate, functional, object_kind, object_entity_id,
                       valid_from, valid_to, recorded_at, superseded_at, believed, source, confidence,
                       status, run_id, evidence)
    SELECT id, %(owner)s, subject_id, predicate, predicate IN ('part_of', 'located_in'), 'entity', object_id,
           valid_from, valid_to, valid_from, superseded_at, true, 'user', 1.0, status, 'bench-seed',
           '{"kind": "seed", "text": "generated"}'::jsonb
    FROM rows
)
INSERT INTO worldgraph."REL" (id, start_id, end_id, properties)
SELECT ag_catalog._graphid(ag_catalog._label_id('worldgraph', 'REL')::integer, %(roff)s + n), sgid, ogid,
       (jsonb_strip_nulls(jsonb_build_object(
           'id', id, 'owner', %(owner)s, 'predicate', predicate, 'status', status,
           'valid_from', (extract(epoch FROM valid_from) * 1000000)::bigint,
           'valid_to', (extract(epoch FROM valid_to) * 1000000)::bigint,
           'recorded_at', (extract(epoch FROM valid_from) * 1000000)::bigint,
           'superseded_at', (extract(epoch FROM superseded_at) * 1000000)::bigint))::text)::ag_catalog.agtype
FROM rows

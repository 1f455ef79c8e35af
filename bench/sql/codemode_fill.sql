-- bench.codemode_plans: a filler owner (%(owner)s) written straight in as the admin role, so the code-mode
-- queries are planned against 100k entities (every tenth a repo), 300k literal facts, 100k part_of
-- relationships and 200k events. One statement (data-modifying CTEs), as parameters need.
WITH e AS (
    INSERT INTO entities (owner_sub, ref, kind, canonical_name, created_at, updated_at)
    SELECT %(owner)s, 'thing:e' || i, CASE WHEN i %% 10 = 0 THEN 'repo' ELSE 'thing' END, 'entity ' || i, now(), now()
    FROM generate_series(1, 100000) AS i
    RETURNING id, ref
), literal AS (
    INSERT INTO facts (owner_sub, subject_id, predicate, functional, object_kind, object_value, valid_from,
                       recorded_at, believed, source, confidence, status)
    SELECT %(owner)s, e.id, 'prefers', false, 'literal', to_jsonb('text ' || g), now() - interval '1 day', now(),
           true, 'user', 1, 'active'
    FROM e CROSS JOIN generate_series(1, 3) AS g
), rel AS (
    INSERT INTO facts (owner_sub, subject_id, predicate, functional, object_kind, object_entity_id, valid_from,
                       recorded_at, believed, source, confidence, status)
    SELECT %(owner)s, e.id, 'part_of', true, 'entity', o.id, now() - interval '1 day', now(), true, 'user', 1,
           'active'
    FROM e JOIN e AS o ON o.ref = 'thing:e' || (1 + (substr(e.ref, 8)::int %% 1000))
), events AS (
    INSERT INTO world_events (owner_sub, event_type, occurred_at, recorded_at, target_entity_id, summary)
    SELECT %(owner)s, CASE WHEN g = 1 THEN 'test_result' ELSE 'state_change' END,
           now() - (g || ' minutes')::interval, now(), e.id, 'filler'
    FROM e CROSS JOIN generate_series(1, 2) AS g
)
SELECT count(*) AS entities FROM e

-- A text search's text list, 0.2 ms less for a common word (issue 11): the entities each projection row
-- points at (graph/sql/finder_search_text.sql's `found`) were read by calling wm_projection_entities (0073) with
-- a subquery as its argument, which the planner does not inline, so the function ran as a statement of its
-- own; now the ids are a column of a one-row subquery and the function is inlined into the plan. Each row then
-- picks its entities from `found` in entity_ids' order (json, by array_position) instead of an unnest joined
-- to `found` per row and a jsonb built and printed again. wm_search_text_lists (0082) holds the file's body,
-- so it is replaced here with the new block (tests/test_search_one_statement.py compares the newest migration
-- defining it with the three files); its other two blocks, its arguments and its grants are unchanged. The
-- vector lists' files changed the same way (they are not in a function). bench/README.md, tenth pass:
-- wm_search_text_lists for the comparison world's 400 keywords p50 / p95 0.92 / 1.45 -> 0.86 / 1.26 ms.
SET LOCAL ROLE worldmem_owner;

CREATE OR REPLACE FUNCTION wm_search_text_lists(reader text, words text, name_forms text[], of_kind text, at_time timestamptz,
                                     k_rows integer, since timestamptz, until timestamptz)
    RETURNS TABLE (names json, facts json, texts json)
    LANGUAGE sql AS $fn$
SELECT public.wm_pin_reader(reader),
       pg_catalog.set_config('pg_trgm.word_similarity_threshold', '0.6', true),
       pg_catalog.set_config('plan_cache_mode', 'force_generic_plan', true);
SELECT
    (SELECT coalesce(json_agg(l ORDER BY l.score DESC, l.ref), '[]'::json) FROM (
-- BEGIN agent_search_entities
WITH exact AS (
    SELECT id AS entity_id, 'ref' AS via, ref AS matched, 1.0::float8 AS score
    FROM entities
    WHERE owner_sub = wm_owner() AND ref = words
    UNION ALL
    SELECT id, 'name', canonical_name, 1.0
    FROM entities
    WHERE owner_sub = wm_owner() AND name_norm = lower(words)
    UNION ALL
    SELECT entity_id, 'alias', alias, 1.0
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND alias_norm = lower(words) AND superseded_at IS NULL
      AND valid_from <= at_time AND (valid_to IS NULL OR valid_to > at_time)
    UNION ALL
    SELECT id, 'name in query', canonical_name, 0.8
    FROM entities
    WHERE owner_sub = wm_owner() AND name_norm = ANY(name_forms::text[])
    UNION ALL
    SELECT entity_id, 'alias in query', alias, 0.8
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND alias_norm = ANY(name_forms::text[]) AND superseded_at IS NULL
      AND valid_from <= at_time AND (valid_to IS NULL OR valid_to > at_time)
), near_names AS (
    SELECT id AS entity_id, canonical_name AS matched, lower(words) <<-> canonical_name AS dist
    FROM entities
    WHERE owner_sub = wm_owner() AND lower(words) <% canonical_name
    ORDER BY lower(words) <<-> canonical_name
    LIMIT k_rows
), near_aliases AS (
    SELECT entity_id, alias AS matched, valid_from, valid_to, lower(words) <<-> alias_norm AS dist
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND superseded_at IS NULL AND lower(words) <% alias_norm
    ORDER BY lower(words) <<-> alias_norm
    LIMIT k_rows
), hits AS (
    SELECT * FROM exact
    UNION ALL
    SELECT entity_id, 'similar name', matched, (1 - dist)::float8 FROM near_names WHERE dist <= 0.4
    UNION ALL
    SELECT entity_id, 'similar alias', matched, (1 - dist)::float8 FROM near_aliases
    WHERE dist <= 0.4 AND valid_from <= at_time AND (valid_to IS NULL OR valid_to > at_time)
), resolved AS MATERIALIZED (
    -- wm_survivor is not leakproof: computed in a MATERIALIZED step, joined as a plain column (0015).
    SELECT h.*, CASE WHEN e.merged_into_id IS NULL THEN e.id ELSE wm_survivor(e.id, NULL) END AS survivor_id
    FROM hits h
    JOIN entities e ON e.id = h.entity_id
), best AS (
    SELECT DISTINCT ON (s.id) s.id, s.ref, s.kind, s.canonical_name AS name, h.via, h.matched, h.score
    FROM resolved h
    JOIN entities s ON s.id = h.survivor_id
    WHERE of_kind::text IS NULL OR s.kind = of_kind::text
    ORDER BY s.id, h.score DESC, h.via
)
SELECT id, ref, kind, name, via, matched, score
FROM best
ORDER BY score DESC, ref
LIMIT k_rows
-- END agent_search_entities
    ) l),
    (SELECT coalesce(json_agg(l ORDER BY l.score DESC, l.id), '[]'::json) FROM (
-- BEGIN agent_search_facts
WITH q AS (SELECT plainto_tsquery('simple', words) AS tsq),
open AS (
    SELECT f.id, ts_rank(f.value_tsv, q.tsq)::float8 AS score
    FROM facts f, q
    WHERE f.owner_sub = wm_owner() AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid_to IS NULL
      AND f.value_tsv IS NOT NULL AND f.value_tsv @@ q.tsq
    ORDER BY score DESC, f.id
    LIMIT k_rows
),
ending AS (
    SELECT f.id, ts_rank(f.value_tsv, q.tsq)::float8 AS score
    FROM facts f, q
    WHERE f.owner_sub = wm_owner() AND f.superseded_at IS NULL AND f.status = 'active'
      AND f.value_tsv IS NOT NULL AND f.valid_to > at_time::timestamptz
      AND ts_match_vq(f.value_tsv, q.tsq)
    ORDER BY score DESC, f.id
    LIMIT k_rows
),
matches AS (
    SELECT id, score FROM open
    UNION ALL
    SELECT id, score FROM ending
    ORDER BY score DESC, id
    LIMIT k_rows
)
SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
       f.object_value, NULL::text AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
       f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
       f.reason, f.evidence, f.supersedes_fact_id, f.run_id, m.score
FROM matches m
JOIN facts f ON f.id = m.id
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE of_kind::text IS NULL OR s.kind = of_kind::text
ORDER BY m.score DESC, f.id
-- END agent_search_facts
    ) l),
    (SELECT coalesce(json_agg(l ORDER BY l.score DESC, l.id), '[]'::json) FROM (
-- BEGIN finder_search_text
WITH words AS MATERIALIZED (  -- parsed once: in a generic plan plainto_tsquery of a parameter ran for every row
    SELECT plainto_tsquery('german', words) AS de, plainto_tsquery('english', words) AS en
),
top AS MATERIALIZED (
    SELECT p.id, p.source_kind, p.source_key, p.text, p.entity_ids, p.valid_from, p.valid_to,
           greatest(ts_rank(p.tsv_german, (SELECT de FROM words)),
                    ts_rank(p.tsv_english, (SELECT en FROM words)))::float8 AS score
    FROM memory_projections p
    WHERE p.owner_sub = wm_owner()
      AND (wm_owned_tsv(p.owner_sub, p.tsv_german) @@ (SELECT de FROM words)
           AND wm_owned_tsv(p.owner_sub, p.tsv_german) @@ (SELECT wm_owner_tsquery())
        OR wm_owned_tsv(p.owner_sub, p.tsv_english) @@ (SELECT en FROM words)
           AND wm_owned_tsv(p.owner_sub, p.tsv_english) @@ (SELECT wm_owner_tsquery()))
      AND (p.tsv_german @@ (SELECT de FROM words) OR p.tsv_english @@ (SELECT en FROM words))
      AND (since::timestamptz IS NULL OR p.valid_to IS NULL OR p.valid_to > since::timestamptz)
      AND (until::timestamptz IS NULL OR p.valid_from IS NULL OR p.valid_from < until::timestamptz)
    ORDER BY score DESC, p.id
    LIMIT k_rows
),
found AS MATERIALIZED (  -- every entity the rows point at, resolved at once (0073; the ids as a column, 0086)
    SELECT f.* FROM (SELECT ARRAY(SELECT DISTINCT unnest(t.entity_ids) FROM top t) AS ids) a,
                    LATERAL wm_projection_entities(a.ids, of_kind::text) f
)
SELECT top.*,
       (SELECT coalesce(json_agg(f ORDER BY array_position(top.entity_ids, f.source_id)), '[]'::json)
        FROM found f WHERE f.source_id = ANY(top.entity_ids)) AS entities
FROM top
ORDER BY top.score DESC, top.id
-- END finder_search_text
    ) l)
;
$fn$;

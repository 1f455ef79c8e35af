-- Entities by name or believed alias: exact matches (score 1); names inside the query (score 0.8: a name or
-- alias equal to one of %(forms)s, the word runs of graph/finder/query_names.py, so "Omas Geburtstag" finds
-- the alias "Oma" and "cat food" the alias "the cat"; index scans of the (owner_sub, name_norm / alias_norm)
-- btrees of 0008); then the %(k)s nearest by trigram word distance (pg_trgm `<<->`), a real top-k over all
-- of the owner's names through the GiST indexes on (owner_sub, name trigrams) of migration 0037 (KNN order,
-- no candidate cap), scored by word similarity (at least 0.6 to count: weaker look-alikes were noise in the
-- retrieval evaluation, docs/benchmarks.md). The cut is also an index condition (the word-similarity operator:
-- at least pg_trgm.word_similarity_threshold, which finder_set_names sets to the same 0.6), so the KNN scan
-- skips what could never count: with the 256-byte signatures of 0060, 0.02-16 ms instead of 55-86 ms at
-- 100,000 names. The `dist <= 0.4` below stays the rule. A merged entity stands for its
-- survivor; each entity comes once, best match first.
-- %(kind)s (NULL: any) filters the survivor's kind.
-- Returns: id, ref, kind, name, via, matched, score
WITH exact AS (
    SELECT id AS entity_id, 'ref' AS via, ref AS matched, 1.0::float8 AS score
    FROM entities
    WHERE owner_sub = wm_owner() AND ref = %(query)s
    UNION ALL
    SELECT id, 'name', canonical_name, 1.0
    FROM entities
    WHERE owner_sub = wm_owner() AND name_norm = lower(%(query)s)
    UNION ALL
    SELECT entity_id, 'alias', alias, 1.0
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND alias_norm = lower(%(query)s) AND wm_believed(superseded_at)
      AND wm_during(valid_from, valid_to, %(at)s)
    UNION ALL
    SELECT id, 'name in query', canonical_name, 0.8
    FROM entities
    WHERE owner_sub = wm_owner() AND name_norm = ANY(%(forms)s::text[])
    UNION ALL
    SELECT entity_id, 'alias in query', alias, 0.8
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND alias_norm = ANY(%(forms)s::text[]) AND wm_believed(superseded_at)
      AND wm_during(valid_from, valid_to, %(at)s)
), near_names AS (
    SELECT id AS entity_id, canonical_name AS matched, lower(%(query)s) <<-> canonical_name AS dist
    FROM entities
    WHERE owner_sub = wm_owner() AND lower(%(query)s) <%% canonical_name
    ORDER BY lower(%(query)s) <<-> canonical_name
    LIMIT %(k)s
), near_aliases AS (
    SELECT entity_id, alias AS matched, valid_from, valid_to, lower(%(query)s) <<-> alias_norm AS dist
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND wm_believed(superseded_at) AND lower(%(query)s) <%% alias_norm
    ORDER BY lower(%(query)s) <<-> alias_norm
    LIMIT %(k)s
), hits AS (
    SELECT * FROM exact
    UNION ALL
    SELECT entity_id, 'similar name', matched, (1 - dist)::float8 FROM near_names WHERE dist <= 0.4
    UNION ALL
    SELECT entity_id, 'similar alias', matched, (1 - dist)::float8 FROM near_aliases
    WHERE dist <= 0.4 AND wm_during(valid_from, valid_to, %(at)s)
), resolved AS MATERIALIZED (
    -- wm_survivor is not leakproof: computed in a MATERIALIZED step, joined as a plain column (0015).
    SELECT h.*, CASE WHEN e.merged_into_id IS NULL THEN e.id ELSE wm_survivor(e.id, NULL) END AS survivor_id
    FROM hits h
    JOIN entities e ON e.id = h.entity_id
), best AS (
    SELECT DISTINCT ON (s.id) s.id, s.ref, s.kind, s.canonical_name AS name, h.via, h.matched, h.score
    FROM resolved h
    JOIN entities s ON s.id = h.survivor_id
    WHERE %(kind)s::text IS NULL OR s.kind = %(kind)s::text
    ORDER BY s.id, h.score DESC, h.via
)
SELECT id, ref, kind, name, via, matched, score
FROM best
ORDER BY score DESC, ref
LIMIT %(k)s

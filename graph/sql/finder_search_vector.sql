-- The %(k)s projections nearest to the query's embedding (cosine), embedded by model %(model)s, through
-- the HNSW index of this dimension (migration 0039: the expression and predicate must match it; {dim} is
-- a validated integer composed with psycopg.sql, never input). The owner filter of row-level security is
-- applied to the index's candidates; hnsw.iterative_scan (set per transaction) keeps scanning until k rows
-- of the owner are found, in relaxed order (the caller sorts by score). Only for an owner with at least
-- EXACT_BELOW projections; a smaller one is read by finder_search_vector_exact. With a time range only rows
-- valid during it.
-- entities: the entities the row points at, as the ledger has them now (a merged one as its survivor,
-- wm_projection_entities, 0073; of kind %(kind)s when given), so no second round trip reads them: json, in
-- entity_ids' order. The ids go to the function as a column, not a subquery, so the planner inlines it (0086).
-- Returns: id, source_kind, source_key, text, entity_ids, valid_from, valid_to, score, entities
WITH top AS MATERIALIZED (
    SELECT p.id, p.source_kind, p.source_key, p.text, p.entity_ids, p.valid_from, p.valid_to,
           (1 - (p.embedding::vector({dim}) <=> %(embedding)s::vector({dim})))::float8 AS score
    FROM memory_projections p
    WHERE p.owner_sub = wm_owner() AND vector_dims(p.embedding) = {dim} AND p.embedding_model = %(model)s
      AND (%(from)s::timestamptz IS NULL OR p.valid_to IS NULL OR p.valid_to > %(from)s::timestamptz)
      AND (%(to)s::timestamptz IS NULL OR p.valid_from IS NULL OR p.valid_from < %(to)s::timestamptz)
    ORDER BY p.embedding::vector({dim}) <=> %(embedding)s::vector({dim})
    LIMIT %(k)s
),
found AS MATERIALIZED (  -- every entity the rows point at, resolved at once (0073; the ids as a column, 0086)
    SELECT f.* FROM (SELECT ARRAY(SELECT DISTINCT unnest(t.entity_ids) FROM top t) AS ids) a,
                    LATERAL wm_projection_entities(a.ids, %(kind)s::text) f
)
SELECT top.*,
       (SELECT coalesce(json_agg(f ORDER BY array_position(top.entity_ids, f.source_id)), '[]'::json)
        FROM found f WHERE f.source_id = ANY(top.entity_ids)) AS entities
FROM top  -- in no particular order: the caller sorts by score (by_score)

-- The %(k)s projections nearest to the query's embedding (cosine), embedded by model %(model)s, computed
-- exactly over the owner's rows: for an owner with fewer than EXACT_BELOW projections (graph/finder/search.py).
-- The distance is on the uncast column, which no HNSW index covers (0039 indexes embedding::vector(dim)), so
-- no plan, custom or generic and prepared on a pooled connection, can turn this into an approximate scan;
-- finder_search_vector is the indexed twin with its own statement text, hence its own prepared plan.
-- With a time range only rows valid during it. {dim} is a validated integer composed with psycopg.sql.
-- entities: the entities the row points at, as the ledger has them now (a merged one as its survivor,
-- wm_survivor; of kind %(kind)s when given), so no second round trip reads them (finder_entities_by_ids).
-- Returns: id, source_kind, source_key, text, entity_ids, valid_from, valid_to, score, entities
WITH top AS (
    SELECT p.id, p.source_kind, p.source_key, p.text, p.entity_ids, p.valid_from, p.valid_to,
           (1 - (p.embedding <=> %(embedding)s::vector({dim})))::float8 AS score
    FROM memory_projections p
    WHERE p.owner_sub = wm_owner() AND vector_dims(p.embedding) = {dim} AND p.embedding_model = %(model)s
      AND (%(from)s::timestamptz IS NULL OR p.valid_to IS NULL OR p.valid_to > %(from)s::timestamptz)
      AND (%(to)s::timestamptz IS NULL OR p.valid_from IS NULL OR p.valid_from < %(to)s::timestamptz)
    ORDER BY p.embedding <=> %(embedding)s::vector({dim})
    LIMIT %(k)s
)
SELECT top.*,
       (SELECT coalesce(jsonb_agg(jsonb_build_object('source_id', e.id, 'id', s.id, 'ref', s.ref, 'kind', s.kind,
                                          'name', s.canonical_name) ORDER BY u.ord), '[]'::jsonb)
        FROM unnest(top.entity_ids) WITH ORDINALITY AS u(entity_id, ord)
        JOIN entities e ON e.owner_sub = wm_owner() AND e.id = u.entity_id
        JOIN entities s ON s.id = CASE WHEN e.merged_into_id IS NULL THEN e.id ELSE wm_survivor(e.id, NULL) END
        WHERE %(kind)s::text IS NULL OR s.kind = %(kind)s::text) AS entities
FROM top  -- in no particular order: the caller sorts by score (by_score)

-- Entities whose canonical name or a believed alias is similar to the query (pg_trgm similarity) or
-- contains a similar word sequence (word similarity); the score is the larger of the two.
WITH hits AS (
    (SELECT id AS entity_id, 'name' AS via, canonical_name AS matched,
            greatest(similarity(lower(%(query)s), canonical_name),
                     word_similarity(lower(%(query)s), canonical_name)) AS score
     FROM entities
     WHERE owner_sub = wm_owner() AND (canonical_name %% lower(%(query)s) OR lower(%(query)s) <%% canonical_name)
     ORDER BY 4 DESC LIMIT %(limit)s)
    UNION ALL
    (SELECT entity_id, 'alias', alias, greatest(similarity(lower(%(query)s), alias_norm),
                     word_similarity(lower(%(query)s), alias_norm))
     FROM entity_aliases
     WHERE owner_sub = wm_owner() AND (alias_norm %% lower(%(query)s) OR lower(%(query)s) <%% alias_norm)
       AND superseded_at IS NULL
       AND valid_from <= %(at)s AND (valid_to IS NULL OR valid_to > %(at)s)
     ORDER BY 4 DESC LIMIT %(limit)s)
)
SELECT DISTINCT ON (coalesce(s.id, e.id)) coalesce(s.id, e.id) AS id, coalesce(s.ref, e.ref) AS ref,
       coalesce(s.kind, e.kind) AS kind, coalesce(s.canonical_name, e.canonical_name) AS name,
       h.via, h.matched, h.score::float8 AS score
FROM hits h
JOIN entities e ON e.id = h.entity_id
LEFT JOIN entities s ON s.id = e.merged_into_id
ORDER BY coalesce(s.id, e.id), h.score DESC, h.via DESC

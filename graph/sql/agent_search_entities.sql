-- Entities whose canonical name or a believed alias is similar to the query (pg_trgm similarity) or
-- contains a similar word sequence (word similarity); the score is the larger of the two. At most
-- %(pool)s candidates of each kind are scored (a sample when a word is shared by thousands of names).
WITH names AS (
    SELECT id AS entity_id, 'name' AS via, canonical_name AS matched
    FROM entities
    WHERE owner_sub = wm_owner() AND (canonical_name %% lower(%(query)s) OR lower(%(query)s) <%% canonical_name)
    LIMIT %(pool)s
), aliases AS (
    SELECT entity_id, 'alias' AS via, alias AS matched
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND (alias_norm %% lower(%(query)s) OR lower(%(query)s) <%% alias_norm)
      AND superseded_at IS NULL AND valid_from <= %(at)s AND (valid_to IS NULL OR valid_to > %(at)s)
    LIMIT %(pool)s
), hits AS (
    SELECT h.*, greatest(similarity(lower(%(query)s), h.matched), word_similarity(lower(%(query)s), h.matched))
                AS score
    FROM (SELECT * FROM names UNION ALL SELECT * FROM aliases) h
), resolved AS MATERIALIZED (
    -- A merged entity stands for the end of its merge chain (wm_survivor, migrations/0015_as_of.sql).
    -- The survivor id is computed in a MATERIALIZED step and joined as a plain column: wm_survivor is not
    -- leakproof, so a join condition calling it would run after the RLS policy (a sequential scan).
    SELECT h.*, CASE WHEN e.merged_into_id IS NULL THEN e.id ELSE wm_survivor(e.id, NULL) END AS survivor_id
    FROM hits h
    JOIN entities e ON e.id = h.entity_id
)
SELECT DISTINCT ON (s.id) s.id, s.ref, s.kind, s.canonical_name AS name,
       h.via, h.matched, h.score::float8 AS score
FROM resolved h
JOIN entities s ON s.id = h.survivor_id
ORDER BY s.id, h.score DESC, h.via DESC

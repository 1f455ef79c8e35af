-- Candidates for a name: the exact ref, canonical name or believed alias (score 1); only when there is
-- none, names and aliases that are similar (pg_trgm similarity >= 0.3) or contain a similar word
-- sequence (word similarity >= 0.6), scored by the larger of the two. At most %(pool)s fuzzy candidates
-- of each kind are scored, so a word shared by thousands of names stays cheap (those are then a sample).
-- Entities recorded after %(system_time)s are unknown then. Aliases as believed at %(system_time)s (now when NULL; wm_known, graph/sql/functions/). With %(follow)s a
-- merged entity stands for its survivor as of that system time; each entity comes once, with its best match.
-- The survivor id is computed in a MATERIALIZED step and joined as a plain column: wm_survivor is not
-- leakproof, so a join condition calling it would run after the RLS policy (a sequential scan).
WITH exact AS (
    SELECT id AS entity_id, 'ref' AS via, ref AS matched, 1.0::float8 AS score
    FROM entities
    WHERE owner_sub = wm_owner() AND ref = %(query)s
      AND (%(system_time)s::timestamptz IS NULL OR created_at <= %(system_time)s::timestamptz)
    UNION ALL
    SELECT id, 'name', canonical_name, 1.0
    FROM entities
    WHERE owner_sub = wm_owner() AND name_norm = lower(%(query)s)
      AND (%(system_time)s::timestamptz IS NULL OR created_at <= %(system_time)s::timestamptz)
    UNION ALL
    SELECT entity_id, 'alias', alias, 1.0
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND alias_norm = lower(%(query)s)
      AND wm_known(recorded_at, superseded_at, %(system_time)s::timestamptz)
      AND wm_during(valid_from, valid_to, %(at)s)
), similar_names AS (
    SELECT id AS entity_id, canonical_name AS matched
    FROM entities
    WHERE owner_sub = wm_owner() AND NOT EXISTS (SELECT 1 FROM exact)
      AND (%(system_time)s::timestamptz IS NULL OR created_at <= %(system_time)s::timestamptz)
      AND (canonical_name %% lower(%(query)s) OR lower(%(query)s) <%% canonical_name)
    LIMIT %(pool)s
), similar_aliases AS (
    SELECT entity_id, alias AS matched
    FROM entity_aliases
    WHERE owner_sub = wm_owner() AND NOT EXISTS (SELECT 1 FROM exact)
      AND (alias_norm %% lower(%(query)s) OR lower(%(query)s) <%% alias_norm)
      AND wm_known(recorded_at, superseded_at, %(system_time)s::timestamptz)
      AND wm_during(valid_from, valid_to, %(at)s)
    LIMIT %(pool)s
), hits AS (
    SELECT * FROM exact
    UNION ALL
    SELECT entity_id, 'similar name', matched,
           greatest(similarity(lower(%(query)s), matched), word_similarity(lower(%(query)s), matched))
    FROM similar_names
    UNION ALL
    SELECT entity_id, 'similar alias', matched,
           greatest(similarity(lower(%(query)s), matched), word_similarity(lower(%(query)s), matched))
    FROM similar_aliases
), resolved AS MATERIALIZED (
    SELECT h.*, CASE WHEN NOT %(follow)s THEN e.id
                     WHEN e.merged_into_id IS NULL AND %(system_time)s::timestamptz IS NULL THEN e.id
                     ELSE wm_survivor(e.id, %(system_time)s::timestamptz) END AS survivor_id
    FROM hits h
    JOIN entities e ON e.id = h.entity_id
), best AS (
    SELECT DISTINCT ON (s.id) s.id, s.ref, s.kind, s.canonical_name AS name, h.via, h.matched, h.score
    FROM resolved h
    JOIN entities s ON s.id = h.survivor_id
    WHERE %(kind)s::text IS NULL OR s.kind = %(kind)s::text
    ORDER BY s.id, h.score DESC,
             CASE h.via WHEN 'ref' THEN 0 WHEN 'alias' THEN 1 WHEN 'name' THEN 2 ELSE 3 END
)
SELECT id, ref, kind, name, via, matched, score
FROM best
ORDER BY score DESC, CASE via WHEN 'ref' THEN 0 WHEN 'alias' THEN 1 WHEN 'name' THEN 2 ELSE 3 END, ref
LIMIT %(limit)s

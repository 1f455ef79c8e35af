-- Projections whose text holds every word of the query in its German or its English stemming (the GIN
-- indexes of migration 0039; stop words of each language are dropped), the %(k)s best by ts_rank. With a
-- time range only rows valid during it (rows without a range always count).
-- Returns: id, source_kind, source_key, text, entity_ids, valid_from, valid_to, score
WITH q AS (SELECT plainto_tsquery('german', %(query)s) AS de, plainto_tsquery('english', %(query)s) AS en)
SELECT p.id, p.source_kind, p.source_key, p.text, p.entity_ids, p.valid_from, p.valid_to,
       greatest(ts_rank(to_tsvector('german'::regconfig, p.text), q.de),
                ts_rank(to_tsvector('english'::regconfig, p.text), q.en))::float8 AS score
FROM memory_projections p, q
WHERE p.owner_sub = wm_owner()
  AND (to_tsvector('german'::regconfig, p.text) @@ q.de OR to_tsvector('english'::regconfig, p.text) @@ q.en)
  AND (%(from)s::timestamptz IS NULL OR p.valid_to IS NULL OR p.valid_to > %(from)s::timestamptz)
  AND (%(to)s::timestamptz IS NULL OR p.valid_from IS NULL OR p.valid_from < %(to)s::timestamptz)
ORDER BY score DESC, p.id
LIMIT %(k)s

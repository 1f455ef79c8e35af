-- Projections whose text holds every word of the query in its German or its English stemming (the GIN
-- indexes of migration 0039, a BitmapOr of the two; stop words of each language are dropped), the %(k)s
-- best by ts_rank. The tsqueries are written inline (not in a CTE) so they are index conditions. With a
-- time range only rows valid during it (rows without a range always count).
-- Returns: id, source_kind, source_key, text, entity_ids, valid_from, valid_to, score
SELECT p.id, p.source_kind, p.source_key, p.text, p.entity_ids, p.valid_from, p.valid_to,
       greatest(ts_rank(to_tsvector('german'::regconfig, p.text), plainto_tsquery('german', %(query)s)),
                ts_rank(to_tsvector('english'::regconfig, p.text), plainto_tsquery('english', %(query)s)))::float8
           AS score
FROM memory_projections p
WHERE p.owner_sub = wm_owner()
  AND (to_tsvector('german'::regconfig, p.text) @@ plainto_tsquery('german', %(query)s)
       OR to_tsvector('english'::regconfig, p.text) @@ plainto_tsquery('english', %(query)s))
  AND (%(from)s::timestamptz IS NULL OR p.valid_to IS NULL OR p.valid_to > %(from)s::timestamptz)
  AND (%(to)s::timestamptz IS NULL OR p.valid_from IS NULL OR p.valid_from < %(to)s::timestamptz)
ORDER BY score DESC, p.id
LIMIT %(k)s

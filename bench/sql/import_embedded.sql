-- bench.import_turns: the owner's episode projections, how many hold a vector, and how many a word finds.
-- Returns: projected, embedded, found
SELECT count(*) AS projected,
       count(*) FILTER (WHERE embedding IS NOT NULL AND NOT embedding_pending) AS embedded,
       count(*) FILTER (WHERE tsv_english @@ plainto_tsquery('english', %(word)s)) AS found
FROM memory_projections
WHERE owner_sub = wm_owner() AND source_kind = 'episode'

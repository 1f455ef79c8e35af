-- How far the finder is for one owner: rows, rows still to embed for %(model)s, rows with an error.
-- Returns: total, pending, failed
SELECT count(*) AS total,
       count(*) FILTER (WHERE embedding_pending OR embedding_model IS DISTINCT FROM %(model)s) AS pending,
       count(*) FILTER (WHERE embedding_error IS NOT NULL) AS failed
FROM memory_projections
WHERE owner_sub = wm_owner()

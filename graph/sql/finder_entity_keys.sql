-- Entity projection keys of one sweep range (after %(after)s up to and including %(last)s, or to the end):
-- the candidates for removal when their entity was merged away or its kind is no longer rag.
-- Returns: source_key
SELECT source_key
FROM memory_projections
WHERE owner_sub = wm_owner() AND source_kind = 'entity'
  AND source_key::uuid > %(after)s::uuid
  AND (%(last)s::uuid IS NULL OR source_key::uuid <= %(last)s::uuid)

-- bench.search_scale: the definitions of the projection HNSW indexes (migration 0039), so the bench can drop
-- them before its bulk load and build them afterwards from the same text (one build instead of 74,000 inserts
-- into the graph: 1,318 s that way).
-- Returns: name, def
SELECT indexname AS name, indexdef AS def
FROM pg_indexes
WHERE schemaname = 'public' AND tablename = 'memory_projections' AND indexdef LIKE '%USING hnsw%'
ORDER BY indexname

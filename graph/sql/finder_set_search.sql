-- Per search transaction: the HNSW scan continues until enough rows pass the owner filter (pgvector 0.8
-- iterative scans), and looks at 80 candidates per step (default 40) for recall.
SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', '80', true)

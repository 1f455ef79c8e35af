-- Per search transaction, before the vector list of an owner with many projections: the HNSW scan
-- continues until enough rows pass the owner filter (pgvector 0.8 iterative scans, relaxed order: the
-- caller sorts the k rows by score), keeps 400 candidates per search (default 40; on the retrieval set,
-- 2,460 projections of the 512-d offline model, the top 20 agree with the exact list at 86.8 % with 40,
-- 98.2 % with 200, 99.6 % with 400), and no plan with a sort is taken. Why the last: the owner policy is
-- estimated at 0.5 % of the table (0036), so the planner preferred all of the owner's rows by an owner
-- index plus a sort by distance (1.0-1.2 s at 74,000 projections: every embedding read and compared)
-- over the HNSW index (18 ms warm). finder_reset_search turns sorting back on for the rest of the
-- transaction.
SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', '400', true),
       set_config('enable_sort', 'off', true)

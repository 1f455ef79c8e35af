-- Per search transaction, before the vector list of an owner with many projections: the HNSW scan
-- continues until enough rows pass the owner filter (pgvector 0.8 iterative scans), looks at 80 candidates
-- per step (default 40) for recall, and no plan with a sort is taken. Why the last: the owner policy is
-- estimated at 0.5 % of the table (0036), so the planner preferred all of the owner's rows by an owner
-- index plus a sort by distance (1.0-1.2 s at 74,000 projections: every embedding read and compared)
-- over the HNSW index (18 ms warm). finder_reset_search turns sorting back on for the rest of the
-- transaction.
SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', '200', true),
       set_config('enable_sort', 'off', true)

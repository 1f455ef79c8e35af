-- Per search transaction, before the vector list of an owner with many projections: the HNSW scan
-- continues until enough rows pass the owner filter (pgvector 0.8 iterative scans, relaxed order: the
-- caller sorts the k rows by score), keeps %(ef)s candidates per search (graph/finder/vector_param.py
-- ef_search: from the list's k, with a floor and a ceiling,
-- the reasons are given there), and no plan with a sort is taken. Why the last: the owner policy is
-- estimated at 0.5 per cent of the table (0036), so the planner preferred all of the owner's rows by an owner
-- index plus a sort by distance (1.0-1.2 s at 74,000 projections: every embedding read and compared)
-- over the HNSW index (18 ms warm). finder_reset_search turns sorting back on for the rest of the
-- transaction. The number is a bound parameter (an int), never text of the statement.
SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),
       set_config('hnsw.ef_search', %(ef)s::int::text, true),
       set_config('enable_sort', 'off', true)

-- How many projections the transaction's owner has, counted up to %(cap)s (an index-only scan that stops at
-- the cap): the vector list reads a small owner exactly (all its rows, sorted by distance) and a large one
-- through the HNSW index. Decided by this count, not by the planner's estimate, which is the same 0.5 %
-- of the table for every owner (0036), new or old, so a new owner's plan would be a large owner's.
-- `turns`: whether any of them is an episode (one probe of the unique (owner, kind, key) btree): only then
-- does the vector round rank the episode list's turns by meaning (graph.finder.sizes).
-- Returns: n, turns
SELECT count(*)::int AS n,
       EXISTS (SELECT FROM memory_projections e WHERE e.owner_sub = wm_owner() AND e.source_kind = 'episode') AS turns
FROM (SELECT 1 FROM memory_projections WHERE owner_sub = wm_owner() LIMIT %(cap)s) owned

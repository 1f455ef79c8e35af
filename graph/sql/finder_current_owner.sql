-- The transaction's owner, as row-level security sees it (the key of graph.finder.sizes' memory).
-- Returns: owner
SELECT wm_owner() AS owner

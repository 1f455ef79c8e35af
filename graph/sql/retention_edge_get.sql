-- retention_edge_get: how far the owner's windowed data has been pruned (no row: never). Columns: edge.
SELECT edge FROM retention_edges WHERE owner_sub = wm_owner()

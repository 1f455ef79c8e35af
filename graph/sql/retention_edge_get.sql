-- retention_edge_get: how far the owner's windowed rows were pruned (none: nothing yet). Columns: edge.
SELECT edge FROM retention_edges WHERE owner_sub = wm_owner()

-- retention_edge_put: the edge only moves forward.
INSERT INTO retention_edges (edge) VALUES (%(edge)s)
ON CONFLICT (owner_sub) DO UPDATE SET edge = greatest(retention_edges.edge, EXCLUDED.edge),
    updated_at = clock_timestamp()

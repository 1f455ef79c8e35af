-- route_get: where an owner lives (graph/routing/routes.py). Columns: cluster, moving_to; no row: the default cluster
SELECT cluster, moving_to FROM owner_routes WHERE routed_owner = %(owner)s

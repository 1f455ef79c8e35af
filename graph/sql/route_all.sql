-- route_all: every owner that does not live on the default cluster (graph/routing/routes.py), for the jobs that
-- visit every cluster. Columns: routed_owner, cluster; an owner without a row lives on the default cluster
SELECT routed_owner, cluster FROM owner_routes ORDER BY routed_owner

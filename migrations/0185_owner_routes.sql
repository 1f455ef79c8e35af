-- Which cluster holds each owner (graph/routing, docs/operations/clusters.md). Read from the directory: the
-- database of the default cluster, where the tokens are. An owner without a row lives on the default cluster,
-- so a single-cluster install never writes here.
-- No RLS: the route is read after the token named the owner and before any owner is set; it holds a
-- cluster name and nothing of the owner's memory. The column is deliberately not `owner_sub`: deleting an
-- owner's data from a cluster (wm_delete_owner, every owner_sub table) must not delete where it went.
SET LOCAL ROLE worldmem_owner;

CREATE TABLE owner_routes (
    routed_owner  text PRIMARY KEY CHECK (routed_owner ~ '^[A-Za-z0-9][A-Za-z0-9_.@:|+\-]{0,199}$'),
    cluster       text NOT NULL CHECK (cluster ~ '^[a-z][a-z0-9_]{0,30}$'),
    -- set while the owner is copied to another cluster: writes are refused (UNAVAILABLE), reads go on
    moving_to     text CHECK (moving_to ~ '^[a-z][a-z0-9_]{0,30}$' AND moving_to <> cluster),
    moving_since  timestamptz,
    changed_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    CHECK ((moving_to IS NULL) = (moving_since IS NULL))
);

-- The app reads routes only; the administrator (`worldmem owner move`) writes them. A compromised app
-- cannot send an owner's requests to another cluster.
REVOKE ALL ON owner_routes FROM PUBLIC;
GRANT SELECT ON owner_routes TO worldmem_app;

-- The Cypher console (graph/console.py) runs a power user's own Cypher text, read-only and pinned to
-- the owner of their token. AGE lets Cypher call any schema-qualified SQL function, e.g.
-- `WITH pg_catalog.set_config('app.current_owner'::pg_text, 'other'::pg_text, true) AS x MATCH (n) ...`
-- switched the owner mid-query before this migration (observed). The database must refuse that,
-- whatever text reaches it, so:
--
-- 1. The console logs in as worldmem_app, pins the owner, timeout and READ ONLY, then
--    `SET LOCAL ROLE worldmem_console` before the user's text runs. The app role may switch to the
--    console role but does not inherit its (smaller) rights.
--    Why not log in as worldmem_console: every backend would then belong to the console role, and one
--    console user could read another's concurrent query text with
--    pg_stat_get_backend_activity(n) (observed: it returned the other owner's query), or cancel it.
--    Under SET ROLE, the backends belong to worldmem_app, of whose sessions the console role may see
--    nothing.
GRANT worldmem_console TO worldmem_app WITH INHERIT FALSE, SET TRUE;

-- 2. Only the app (and the schema owner) may change settings through SQL functions. Settings the console
--    needs are set by worldmem_app before the role switch; a Cypher query cannot issue SET or RESET
--    itself, so without set_config it can change neither the owner, nor the role, nor the timeout.
REVOKE EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) TO worldmem_app, worldmem_owner;

-- 3. Side effects that READ ONLY does not stop: notifications and WAL messages.
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_notify(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pg_catalog.pg_notify(text, text) TO worldmem_app, worldmem_owner;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_logical_emit_message(boolean, text, text, boolean) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_logical_emit_message(boolean, text, bytea, boolean) FROM PUBLIC;

-- 4. AGE's administrative functions: graph and label DDL, file loaders, upgrade helpers (superuser
--    only from now on), and the whole-graph cache functions. The cache ignores row-level security:
--    age_vertex_stats on a made-up vertex returned another owner's degrees and age_graph_stats the
--    count of all vertices (observed), so only the app keeps those.
REVOKE EXECUTE ON FUNCTION ag_catalog.create_graph(name) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.drop_graph(name, boolean) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.alter_graph(name, cstring, name) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.create_vlabel(cstring, cstring) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.create_elabel(cstring, cstring) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.drop_label(name, name, boolean) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.load_labels_from_file(name, name, text, boolean, boolean) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.load_edges_from_file(name, name, text, boolean) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.create_complete_graph(name, integer, name, name) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.age_create_barbell_graph(name, integer, integer, name, ag_catalog.agtype,
                                                               name, ag_catalog.agtype) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.create_subgraph(name, name, text, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.age_prepare_pg_upgrade() FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.age_finish_pg_upgrade() FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.age_revert_pg_upgrade_changes() FROM PUBLIC;

REVOKE EXECUTE ON FUNCTION ag_catalog.age_vertex_stats(ag_catalog.agtype, ag_catalog.agtype) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.age_graph_stats(ag_catalog.agtype) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.age_delete_global_graphs(ag_catalog.agtype) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ag_catalog.age_invalidate_graph_cache() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ag_catalog.age_vertex_stats(ag_catalog.agtype, ag_catalog.agtype),
                          ag_catalog.age_graph_stats(ag_catalog.agtype),
                          ag_catalog.age_delete_global_graphs(ag_catalog.agtype),
                          ag_catalog.age_invalidate_graph_cache()
    TO worldmem_app, worldmem_owner;

-- 5. Error-based probing. PostgreSQL evaluates a LEAKPROOF qual before the row-level security policy
--    when the qual is cheap (< 10 x cpu_operator_cost). agtype_access_operator (LEAKPROOF since 0004,
--    for index use) raises "container must be an array or object" on `n.name.x` when name is a string,
--    so `MATCH (n:Entity) WHERE n.name = 'Guess' AND n.name.x = 1` failed exactly when ANOTHER owner
--    had an entity named 'Guess' (observed: a cross-owner existence oracle). At COST 10 every qual
--    that uses the operator costs >= 10 and keeps its place after the policy. Index use only needs
--    LEAKPROOF, not a low cost: the id lookup keeps its index scan (0.25 ms per query before and after,
--    measured on 100k vertices). Indexes on nested paths (`properties.a.b`) would bring the risk back
--    through bitmap rechecks; there are none.
ALTER FUNCTION ag_catalog.agtype_access_operator(VARIADIC ag_catalog.agtype[]) COST 10;

-- Extensions, roles and the AGE graph. Roles are cluster-wide, so every step is idempotent.
CREATE EXTENSION IF NOT EXISTS age;
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

DO $roles$
BEGIN
    -- Owns the schema objects; never logs in. Owners skip RLS, so the app must not be this role.
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'worldmem_owner') THEN
        CREATE ROLE worldmem_owner NOLOGIN;
    END IF;
    -- The application: owns nothing, so row-level security always applies to it.
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'worldmem_app') THEN
        CREATE ROLE worldmem_app NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
    END IF;
    -- The Cypher console: SELECT only.
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'worldmem_console') THEN
        CREATE ROLE worldmem_console NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
    END IF;
END
$roles$;

ALTER ROLE worldmem_app NOSUPERUSER NOBYPASSRLS;
ALTER ROLE worldmem_console NOSUPERUSER NOBYPASSRLS;
ALTER ROLE worldmem_app SET search_path = ag_catalog, public;
ALTER ROLE worldmem_console SET search_path = ag_catalog, public;
ALTER ROLE worldmem_owner SET search_path = ag_catalog, public;

GRANT CREATE, USAGE ON SCHEMA public TO worldmem_owner;
GRANT USAGE ON SCHEMA public TO worldmem_app, worldmem_console;
GRANT USAGE ON SCHEMA ag_catalog TO worldmem_app, worldmem_console, worldmem_owner;

-- The graph mirror. Its name is fixed here and in graph/settings.py (GRAPH_NAME).
SELECT ag_catalog.create_graph('worldgraph')
WHERE NOT EXISTS (SELECT 1 FROM ag_catalog.ag_graph WHERE name = 'worldgraph');
GRANT USAGE ON SCHEMA worldgraph TO worldmem_app, worldmem_console;

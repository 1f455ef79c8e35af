-- Functions that appear in ag_catalog later (an `ALTER EXTENSION age UPDATE`, or anything else) are
-- executable by nobody until a migration grants them: the console's allow-list (0019) stays an allow-list.
-- 0019's `ALTER DEFAULT PRIVILEGES IN SCHEMA ag_catalog REVOKE ... FROM PUBLIC` cannot do this: per-schema
-- default privileges only add to the global ones, they never take PUBLIC's EXECUTE away (observed: a
-- function created afterwards was executable by worldmem_console). An event trigger sees every new
-- function, also those of extension scripts (pg_event_trigger_ddl_commands().in_extension), and revokes.
-- `worldmem doctor` still reports every difference from graph/age/console_snapshot.json (LEAKPROOF and
-- COST settings are reset by an update, not by this trigger).
CREATE OR REPLACE FUNCTION public.wm_ag_catalog_revoke_new() RETURNS event_trigger
    LANGUAGE plpgsql AS $trigger$
DECLARE
    cmd record;
BEGIN
    FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands()
               WHERE object_type IN ('function', 'aggregate') AND schema_name = 'ag_catalog'
    LOOP
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', cmd.objid::regprocedure);
    END LOOP;
END
$trigger$;
DROP EVENT TRIGGER IF EXISTS wm_ag_catalog_new_functions;

CREATE EVENT TRIGGER wm_ag_catalog_new_functions ON ddl_command_end
    WHEN TAG IN ('CREATE FUNCTION', 'CREATE AGGREGATE', 'CREATE EXTENSION', 'ALTER EXTENSION')
    EXECUTE FUNCTION public.wm_ag_catalog_revoke_new();
REVOKE ALL ON FUNCTION public.wm_ag_catalog_revoke_new() FROM PUBLIC;

SET LOCAL ROLE worldmem_owner;

-- Point reads that pin their owner themselves: ONE statement, one message, no pipeline (a pipeline of the
-- owner's statement, the read and a Sync woke the server three times per read and cost the client more CPU
-- than the read). A read is a call of a function (wm_read_state_at, wm_read_state_known_at,
-- wm_read_fact_history, wm_read_entity, wm_read_neighbors_first, wm_search_text_lists) whose first statement
-- calls this one: it pins the owner for the read's implicit transaction (app.current_owner and
-- transaction_read_only, transaction-locally, as graph/sql/tx_set_owner_read_only.sql does).
-- Why this is safe: the readers run with the caller's rights (row-level security as for any statement of the
-- app role) and pin the owner through pg_catalog.set_config, which only worldmem_app and worldmem_owner may
-- execute (migrations/0006): the console role can call neither set_config nor these functions. Nothing
-- outlives the statement: the settings are transaction-local and the statement is its own transaction
-- (autocommit). A caller that forgot the owner reads nothing (the owner policies fail closed).
-- LANGUAGE sql (PostgreSQL 18 keeps their plans per session), VOLATILE (set_config).
CREATE OR REPLACE FUNCTION wm_pin_reader(reader text) RETURNS void
    LANGUAGE sql AS $fn$
    SELECT pg_catalog.set_config('app.current_owner', reader, true),
           pg_catalog.set_config('transaction_read_only', 'on', true);
$fn$;
REVOKE EXECUTE ON FUNCTION wm_pin_reader(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_pin_reader(text) TO worldmem_app;

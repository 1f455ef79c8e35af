SET LOCAL ROLE worldmem_owner;

-- Point reads that pin their owner themselves (issue 11): ONE statement, one message, no pipeline.
-- Before, a point read was a pipeline of two statements (tx_set_owner_read_only.sql, then the read) and a Sync:
-- psycopg flushes each to the socket on its own, so the server woke three times per read, and the client spent
-- ~90 us more CPU on the pipeline than on a plain statement (bench/README.md, "Reads that pin their owner").
-- Now the read is a call of one of the functions below, whose first statement pins the owner for the read's
-- implicit transaction (wm_pin_reader: app.current_owner and transaction_read_only, transaction-locally, as
-- tx_set_owner_read_only.sql does) and whose second statement is the read, unchanged: the bodies are those of
-- graph/sql/reads_state_at.sql, reads_state_known_at.sql, reads_fact_history.sql and agent_get_entity.sql
-- before this migration (those files now call these functions; the columns are the same).
-- Why this is as safe as before: the functions run with the caller's rights (row-level security as for any
-- statement of the app role) and pin the owner through pg_catalog.set_config, which only worldmem_app and
-- worldmem_owner may execute (0006): the console role (worldmem_console) can call neither set_config nor,
-- below, these functions. Nothing outlives the statement: the settings are transaction-local and the
-- statement is its own transaction (autocommit). A caller that forgot the owner would read nothing (0003's
-- policies fail closed). LANGUAGE sql (PostgreSQL 18 keeps their plans per session), VOLATILE (set_config).
CREATE OR REPLACE FUNCTION wm_pin_reader(reader text) RETURNS void
    LANGUAGE sql AS $fn$
    SELECT pg_catalog.set_config('app.current_owner', reader, true),
           pg_catalog.set_config('transaction_read_only', 'on', true);
$fn$;
REVOKE EXECUTE ON FUNCTION wm_pin_reader(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_pin_reader(text) TO worldmem_app;

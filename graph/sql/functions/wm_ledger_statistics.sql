SET LOCAL ROLE worldmem_owner;

-- Statistics that keep up with a bulk import. Until a table has been analysed once the planner guesses 0.5 %
-- of the rows for any equality, and the buffered writer's prefetch (batch_believed_by_refs) re-read every
-- entity of the owner per fact (a new database's first import ran at 27 facts/s instead of ~2,000); analysing
-- only once left the planner with the statistics of the first few hundred rows, and every later import of the
-- same minute slowed down as the tables grew. Autovacuum analyses too late for an import that starts at once.
-- So the committer calls this after a batched proposal, in the same transaction: a table is analysed when it
-- has never been, or when it has grown to more than twice the pages it had at its last analysis (its size
-- counts this transaction's rows; ANALYZE counts them too). The statistics are never off by more than a factor
-- of two in size, and a table growing from nothing to N pages is analysed about log2(N) times (each ANALYZE
-- samples at most 30,000 rows). Statistics describe columns, never one owner's rows; owner_sub keeps
-- STATISTICS 0 (migrations/0036).
-- SECURITY DEFINER: the app role may not ANALYZE; only these tables, only when due.
CREATE OR REPLACE FUNCTION wm_ledger_statistics() RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    analysed integer := 0;
BEGIN
    IF wm_due_for_statistics('public.entities') THEN
        ANALYZE public.entities;
        analysed := analysed + 1;
    END IF;
    IF wm_due_for_statistics('public.facts') THEN
        ANALYZE public.facts;
        analysed := analysed + 1;
    END IF;
    IF wm_due_for_statistics('public.entity_aliases') THEN
        ANALYZE public.entity_aliases;
        analysed := analysed + 1;
    END IF;
    RETURN analysed;
END
$fn$;
REVOKE ALL ON FUNCTION wm_ledger_statistics() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_ledger_statistics() TO worldmem_app;

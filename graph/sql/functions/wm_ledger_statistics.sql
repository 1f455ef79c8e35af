SET LOCAL ROLE worldmem_owner;

-- Statistics that keep up with a bulk import (replaces 0071's wm_first_statistics, issue 11's write path).
-- 0071 analysed the ledger tables once, after the first batched proposal of a new database. That fixed the
-- first import (27 -> 2,089 facts/s with autovacuum off) but left the planner with the statistics of those
-- few hundred rows: every later import in the same minute slowed down as the tables grew (bench.write_bulk,
-- four owners of 3,000 people one after the other: 3,759 / 2,787 / 2,127 / 1,773 facts/s, against 1,892 /
-- 5,288 / 4,827 / 4,430 without the call: a never-analysed table is estimated from its current size).
-- Now a table is analysed when it has never been, or when it has grown to more than twice the pages it had
-- at its last analysis (its size counts this transaction's rows; ANALYZE counts them too): the statistics
-- are never off by more than a factor of two in size, and a table growing from nothing to N pages is
-- analysed about log2(N) times (each ANALYZE samples at most 30,000 rows). Autovacuum still does the rest.
-- SECURITY DEFINER as in 0071: the app role may not ANALYZE; only these tables, only when due.
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

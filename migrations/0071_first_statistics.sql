-- A new database's first bulk import at the speed of every later one (issue 11, the write path where users
-- meet it). Until a table has been analysed once (pg_class.reltuples < 0) the planner has no statistics at
-- all and guesses 0.5 % of the rows for any equality: the batched committer's prefetch of the rows believed
-- for a proposal's refs (batch_believed_by_refs) then put the owner's current facts on the outside of a
-- nested loop and re-read every entity of the owner per fact. Measured (bench.fresh_owner's import, autovacuum
-- off): the first owner's 3,000 people at 27 facts/s, the second (after an ANALYZE) at 2,060; the one
-- prefetch statement took 0.95 s (custom plan) to 26.7 s (generic plan) per 500-operation proposal at 2,400
-- facts. Autovacuum analyses a new table only after its naptime and threshold (about a minute), too late for
-- an import that starts at once. The committer calls this after a batched proposal, in the same transaction
-- (ANALYZE counts the transaction's own rows), until a call finds nothing left to analyse.
-- SECURITY DEFINER: the app role may not ANALYZE; the function analyses only these tables, only while
-- they have never been analysed, and returns how many it analysed. Statistics describe columns, never one
-- owner's rows; owner_sub keeps STATISTICS 0 (0036).
SET LOCAL ROLE worldmem_owner;

CREATE FUNCTION wm_first_statistics() RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    analysed integer := 0;
BEGIN
    IF (SELECT reltuples < 0 FROM pg_class WHERE oid = 'public.entities'::regclass) THEN
        ANALYZE public.entities;
        analysed := analysed + 1;
    END IF;
    IF (SELECT reltuples < 0 FROM pg_class WHERE oid = 'public.facts'::regclass) THEN
        ANALYZE public.facts;
        analysed := analysed + 1;
    END IF;
    IF (SELECT reltuples < 0 FROM pg_class WHERE oid = 'public.entity_aliases'::regclass) THEN
        ANALYZE public.entity_aliases;
        analysed := analysed + 1;
    END IF;
    RETURN analysed;
END
$fn$;

REVOKE ALL ON FUNCTION wm_first_statistics() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_first_statistics() TO worldmem_app;

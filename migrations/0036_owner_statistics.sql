-- Plans that do not depend on how many rows the statistics credit an owner with.
--
-- Every owner table has row-level security `owner_sub = wm_owner()`. The planner evaluates the stable
-- wm_owner() while estimating and looks the owner up in the column's most-common-values list. An owner
-- whose rows arrived after the last ANALYZE is not in that list, and when the list covers every row
-- seen (one or a few owners) the planner estimates 1 row for that owner. It then scans "all of the
-- owner's rows" by any index that leads with owner_sub and joins with a filter instead of the primary
-- key: measured (bench.fresh_owner, 3,000 people imported by a second owner, read at once) a name search
-- took more than 120 s (3,000 x 3,000 trigram comparisons), a fact search 97-140 ms instead of 8 ms,
-- even entity_by_ref 2.9 ms instead of 0.06 ms (a scan of the owner's names instead of the unique
-- ref index). The same happens on a busy multi-owner server to any owner not among the 100 most common.
--
-- Without statistics on owner_sub the planner estimates `owner_sub = X` at its default 0.5 % of the
-- table for every owner, known or new, before and after ANALYZE: the owner filter is never mistaken for a
-- one-row lookup, so joins go through primary keys and lookups through their selective indexes. The
-- planner loses nothing it should use: all reads are by id, ref, subject or text, and the owner filter
-- comes from the policy on every table alike. Statistics on all other columns stay.
-- Every table of the public schema with an owner_sub column when this runs (ledger, governance, tokens,
-- chat turns, curator usage, ...). A later migration that adds an owner table sets the same;
-- tests/test_owner_statistics.py checks that every owner table has it.
DO $nostats$
DECLARE
    t text;
BEGIN
    FOR t IN SELECT c.relname FROM pg_attribute a
             JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attname = 'owner_sub' AND NOT a.attisdropped
    LOOP
        EXECUTE format('ALTER TABLE public.%I ALTER COLUMN owner_sub SET STATISTICS 0', t);
    END LOOP;
END
$nostats$;

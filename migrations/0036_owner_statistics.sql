-- Plans that do not depend on how many rows the statistics credit an owner with (issue 16).
-- Runs as the migrating superuser (deleting rows of pg_statistic needs it).
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
ALTER TABLE entities ALTER COLUMN owner_sub SET STATISTICS 0;
ALTER TABLE entity_aliases ALTER COLUMN owner_sub SET STATISTICS 0;
ALTER TABLE facts ALTER COLUMN owner_sub SET STATISTICS 0;
ALTER TABLE world_events ALTER COLUMN owner_sub SET STATISTICS 0;
ALTER TABLE proposals ALTER COLUMN owner_sub SET STATISTICS 0;
ALTER TABLE suppression_markers ALTER COLUMN owner_sub SET STATISTICS 0;
ALTER TABLE entity_merges ALTER COLUMN owner_sub SET STATISTICS 0;
ALTER TABLE entity_merge_moves ALTER COLUMN owner_sub SET STATISTICS 0;
ALTER TABLE merge_dismissals ALTER COLUMN owner_sub SET STATISTICS 0;

-- ANALYZE skips a column whose target is 0 but leaves what it gathered before: remove that.
DELETE FROM pg_statistic s
USING pg_attribute a
WHERE a.attrelid = s.starelid AND a.attnum = s.staattnum AND a.attname = 'owner_sub'
  AND a.attstattarget = 0;

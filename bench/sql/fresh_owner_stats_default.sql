-- bench.fresh_owner --baseline: owner_sub statistics as before migration 0036 (the next ANALYZE gathers them).
ALTER TABLE entities ALTER COLUMN owner_sub SET STATISTICS -1;
ALTER TABLE entity_aliases ALTER COLUMN owner_sub SET STATISTICS -1;
ALTER TABLE facts ALTER COLUMN owner_sub SET STATISTICS -1;
ALTER TABLE world_events ALTER COLUMN owner_sub SET STATISTICS -1;
ALTER TABLE proposals ALTER COLUMN owner_sub SET STATISTICS -1;
ALTER TABLE suppression_markers ALTER COLUMN owner_sub SET STATISTICS -1;
ALTER TABLE entity_merges ALTER COLUMN owner_sub SET STATISTICS -1;
ALTER TABLE entity_merge_moves ALTER COLUMN owner_sub SET STATISTICS -1;
ALTER TABLE merge_dismissals ALTER COLUMN owner_sub SET STATISTICS -1;

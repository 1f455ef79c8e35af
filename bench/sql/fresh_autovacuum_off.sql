-- bench.fresh_owner: no background ANALYZE on the scratch database, so the reads right after an import
-- see exactly the statistics the import left (a fresh import: autovacuum has not run yet). Only plain
-- tables: a partitioned parent (observed_events, 0044) takes no storage parameters; its partitions are listed.
DO $off$
DECLARE
    t record;
BEGIN
    FOR t IN SELECT s.schemaname, s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
             WHERE c.relkind = 'r' LOOP
        EXECUTE format('ALTER TABLE %I.%I SET (autovacuum_enabled = off)', t.schemaname, t.relname);
    END LOOP;
END
$off$;

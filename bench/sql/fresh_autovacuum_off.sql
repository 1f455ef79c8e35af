-- bench.fresh_owner: no background ANALYZE on the scratch database, so the reads right after an import
-- see exactly the statistics the import left (the case of issue 16: autovacuum has not run yet).
DO $off$
DECLARE
    t record;
BEGIN
    FOR t IN SELECT schemaname, relname FROM pg_stat_user_tables LOOP
        EXECUTE format('ALTER TABLE %I.%I SET (autovacuum_enabled = off)', t.schemaname, t.relname);
    END LOOP;
END
$off$;

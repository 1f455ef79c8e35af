-- The time-range rule of 0021 for the time columns added since (chat turns, curator state, quota, usage,
-- curator runs, dropped operations, vocabulary proposals): the same idempotent block, run again. Their
-- values come from the database clock, so no existing row can be outside the range.
DO $constrain$
DECLARE
    col record;
BEGIN
    FOR col IN
        SELECT c.table_name, c.column_name
        FROM information_schema.columns c
        JOIN pg_tables t ON t.schemaname = c.table_schema AND t.tablename = c.table_name
        WHERE c.table_schema = 'public' AND c.data_type = 'timestamp with time zone'
          AND t.tableowner = 'worldmem_owner'
          -- idempotent, so a later migration can run this block again for time columns it adds
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                          WHERE k.conname = c.table_name || '_' || c.column_name || '_in_range')
        ORDER BY c.table_name, c.column_name
    LOOP
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I >= %L AND %I < %L)',
                       col.table_name, col.table_name || '_' || col.column_name || '_in_range',
                       col.column_name, '0001-01-02 00:00:00+00', col.column_name, '9999-12-31 00:00:00+00');
    END LOOP;
END
$constrain$;

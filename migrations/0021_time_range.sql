-- Every time column accepts only instants from 0001-01-02 to 9999-12-30 UTC (graph/timebounds.py).
-- A legal ISO text can name an instant outside (`9999-12-31T23:00:00-14:00` is year 10000 in UTC); one such
-- row made every read that met it fail, and `worldmem doctor` with them, and the append-only ledger could
-- not remove it. The application refuses such times at its boundaries; these CHECKs make the database
-- refuse them too, whatever writes.
--
-- The columns are found in the catalog (every timestamptz column of a table worldmem_owner owns), so the
-- rule also covers time columns added by migrations before this one. It runs as the migrating superuser
-- (RLS does not hide other owners' rows from it). If rows outside the range exist (an upgrade of a
-- database written before this rule), the migration refuses to run and names them, up to 50: nothing is
-- changed, and the owner decides what each should be (this migration never guesses).
DO $check$
DECLARE
    col record;
    found text;
    problems text[] := '{}';
BEGIN
    FOR col IN
        SELECT c.table_name, c.column_name,
               EXISTS (SELECT 1 FROM information_schema.columns i
                       WHERE i.table_schema = 'public' AND i.table_name = c.table_name
                         AND i.column_name = 'id') AS has_id
        FROM information_schema.columns c
        JOIN pg_tables t ON t.schemaname = c.table_schema AND t.tablename = c.table_name
        WHERE c.table_schema = 'public' AND c.data_type = 'timestamp with time zone'
          AND t.tableowner = 'worldmem_owner'
        ORDER BY c.table_name, c.column_name
    LOOP
        EXECUTE format(
            'SELECT string_agg(format(%L, %I::text, %s), E''\n'') FROM (SELECT ctid, * FROM %I WHERE NOT (%I >= %L AND %I < %L) LIMIT 50) bad',
            col.table_name || '.' || col.column_name || ' = %s in row %s',
            col.column_name, CASE WHEN col.has_id THEN 'id::text' ELSE 'ctid::text' END,
            col.table_name,
            col.column_name, '0001-01-02 00:00:00+00', col.column_name, '9999-12-31 00:00:00+00')
        INTO found;
        IF found IS NOT NULL THEN
            problems := problems || found;
        END IF;
    END LOOP;
    IF cardinality(problems) > 0 THEN
        RAISE EXCEPTION USING
            MESSAGE = 'times outside 0001-01-02..9999-12-30 UTC exist; fix or remove these rows, then migrate again',
            DETAIL = array_to_string(problems, E'\n'),
            ERRCODE = 'check_violation';
    END IF;
END
$check$;

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

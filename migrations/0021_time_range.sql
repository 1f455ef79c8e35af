-- Every time column accepts only instants from 0001-01-02 to 9999-12-30 UTC (graph/timebounds.py).
-- A legal ISO text can name an instant outside (`9999-12-31T23:00:00-14:00` is year 10000 in UTC); one such
-- row made every read that met it fail, and `worldmem doctor` with them, and the append-only ledger could
-- not remove it. The application refuses such times at its boundaries; these CHECKs make the database
-- refuse them too, whatever writes.
--
-- wm_constrain_time_ranges() is the one rule, called by every migration that adds time columns: it finds
-- them in the catalog (every timestamptz column of a table worldmem_owner owns that has no
-- `<table>_<column>_in_range` constraint yet) and adds the CHECK. A migration runs it as the migrating
-- superuser or as worldmem_owner; neither is filtered by row-level security. If rows outside the range
-- exist in such a column (a column added to a table that already holds rows, or a constraint dropped by
-- hand), it refuses and names them, up to 50 per column: nothing is changed, and the owner decides what
-- each should be (a migration never guesses). It is a procedure of the numbered migrations, not a
-- repeatable function (graph/sql/functions/): migrations call it, and they run before the repeatables.
CREATE PROCEDURE wm_constrain_time_ranges()
    LANGUAGE plpgsql AS $proc$
DECLARE
    col record;
    found text;
    problems text[] := '{}';
BEGIN
    CREATE TEMP TABLE wm_unconstrained ON COMMIT DROP AS
        SELECT c.table_name::text AS table_name, c.column_name::text AS column_name,
               EXISTS (SELECT 1 FROM information_schema.columns i
                       WHERE i.table_schema = 'public' AND i.table_name = c.table_name
                         AND i.column_name = 'id') AS has_id
        FROM information_schema.columns c
        JOIN pg_tables t ON t.schemaname = c.table_schema AND t.tablename = c.table_name
        WHERE c.table_schema = 'public' AND c.data_type = 'timestamp with time zone'
          AND t.tableowner = 'worldmem_owner'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                          WHERE k.conname = c.table_name || '_' || c.column_name || '_in_range');
    FOR col IN SELECT * FROM wm_unconstrained ORDER BY table_name, column_name LOOP
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
    FOR col IN SELECT * FROM wm_unconstrained ORDER BY table_name, column_name LOOP
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I >= %L AND %I < %L)',
                       col.table_name, col.table_name || '_' || col.column_name || '_in_range',
                       col.column_name, '0001-01-02 00:00:00+00', col.column_name, '9999-12-31 00:00:00+00');
    END LOOP;
    DROP TABLE wm_unconstrained;
END
$proc$;
-- Only migrations run it (as the superuser or worldmem_owner): the app may alter no table.
REVOKE ALL ON PROCEDURE wm_constrain_time_ranges() FROM PUBLIC;
GRANT EXECUTE ON PROCEDURE wm_constrain_time_ranges() TO worldmem_owner;

CALL wm_constrain_time_ranges();

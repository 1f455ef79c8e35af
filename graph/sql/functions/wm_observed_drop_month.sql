SET LOCAL ROLE worldmem_owner;

-- Drop a month's partition, but only when every owner with rows in it has a rollup marker for that month
-- ('events-month:YYYY-MM') that counted exactly the rows the partition holds for them now: a row that
-- arrived after the rollup keeps the partition alive until the next run rolls it up too. Returns the
-- number of rows dropped; refuses (check_violation) otherwise. The partition is read directly (no
-- policy on it); the markers are read per owner under the owner policy.
CREATE OR REPLACE FUNCTION wm_observed_drop_month(p_month date) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    part text := wm_observed_partition_name(p_month::timestamp AT TIME ZONE 'UTC');
    caller text := current_setting('app.current_owner', true);
    o record;
    rolled bigint;
    total bigint := 0;
BEGIN
    IF extract(day FROM p_month) <> 1 THEN
        RAISE EXCEPTION 'retention: % is not the first day of a month', p_month USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_month + interval '1 month' > now() THEN
        RAISE EXCEPTION 'retention: month % has not ended', p_month USING ERRCODE = 'check_violation';
    END IF;
    IF to_regclass(part) IS NULL THEN
        RETURN 0;
    END IF;
    EXECUTE format('LOCK TABLE %I IN SHARE MODE', part);  -- no insert between the check and the drop
    FOR o IN EXECUTE format('SELECT owner_sub, count(*) AS n FROM %I GROUP BY owner_sub', part) LOOP
        PERFORM set_config('app.current_owner', o.owner_sub, true);
        SELECT r.rows_rolled INTO rolled FROM retention_rollups r
        WHERE r.owner_sub = o.owner_sub AND r.series_key = 'events-month:' || to_char(p_month, 'YYYY-MM');
        IF rolled IS DISTINCT FROM o.n THEN
            PERFORM set_config('app.current_owner', coalesce(caller, ''), true);
            RAISE EXCEPTION 'retention: % rows of owner % in % are not rolled up (marker: %)', o.n, o.owner_sub,
                part, coalesce(rolled::text, 'none') USING ERRCODE = 'check_violation';
        END IF;
        total := total + o.n;
    END LOOP;
    PERFORM set_config('app.current_owner', coalesce(caller, ''), true);
    EXECUTE format('DROP TABLE %I', part);
    RETURN total;
END
$fn$;
REVOKE ALL ON FUNCTION wm_observed_drop_month(date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_observed_drop_month(date) TO worldmem_app;

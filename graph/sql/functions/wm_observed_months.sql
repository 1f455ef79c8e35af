SET LOCAL ROLE worldmem_owner;

-- Which months have a partition (for the retention job).
CREATE OR REPLACE FUNCTION wm_observed_months() RETURNS SETOF date
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
    SELECT to_date(substr(c.relname, length('observed_events_') + 1), 'YYYYMM')
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'observed_events'::regclass
    ORDER BY 1
$fn$;
REVOKE ALL ON FUNCTION wm_observed_months() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_observed_months() TO worldmem_app;

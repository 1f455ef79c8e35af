SET LOCAL ROLE worldmem_owner;

-- The owners with rows in a month's partition and how many: the job rolls each of them up before the
-- partition may go. Names owners and counts only, never content.
CREATE OR REPLACE FUNCTION wm_observed_owners(month date) RETURNS TABLE (owner_sub text, n bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    part text := wm_observed_partition_name(month::timestamp AT TIME ZONE 'UTC');
BEGIN
    IF to_regclass(part) IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY EXECUTE format('SELECT owner_sub, count(*) FROM %I GROUP BY owner_sub ORDER BY owner_sub', part);
END
$fn$;
REVOKE ALL ON FUNCTION wm_observed_owners(date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_observed_owners(date) TO worldmem_app;

SET LOCAL ROLE worldmem_owner;

-- The month's partition, created on first use. SECURITY DEFINER: the app creates no tables itself.
CREATE OR REPLACE FUNCTION wm_observed_partition(at timestamptz) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
    part text := wm_observed_partition_name(at);
    start timestamp := date_trunc('month', at AT TIME ZONE 'UTC');
BEGIN
    IF to_regclass(part) IS NULL THEN
        PERFORM pg_advisory_xact_lock(hashtext(part));
        IF to_regclass(part) IS NULL THEN
            EXECUTE format('CREATE TABLE %I PARTITION OF observed_events FOR VALUES FROM (%L) TO (%L)', part,
                           start AT TIME ZONE 'UTC', (start + interval '1 month') AT TIME ZONE 'UTC');
            EXECUTE format('ALTER TABLE %I ALTER COLUMN owner_sub SET STATISTICS 0', part);
        END IF;
    END IF;
    RETURN part;
END
$fn$;
REVOKE ALL ON FUNCTION wm_observed_partition(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_observed_partition(timestamptz) TO worldmem_app;

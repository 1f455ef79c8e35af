SET LOCAL ROLE worldmem_owner;

-- The partition name of the month holding `at` (UTC).
CREATE OR REPLACE FUNCTION wm_observed_partition_name(at timestamptz) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN 'observed_events_' || to_char(at AT TIME ZONE 'UTC', 'YYYYMM');

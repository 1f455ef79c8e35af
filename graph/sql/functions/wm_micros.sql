SET LOCAL ROLE worldmem_owner;

-- Edge and vertex times are integer microseconds since the epoch (graph/age/mirror.py); a missing
-- property (SQL NULL) and a stored null (agtype null, which casts to a NULL bigint) are both NULL.
-- STABLE, not IMMUTABLE: timestamptz + interval is STABLE, and a function declared less volatile than its
-- body is never inlined.
CREATE OR REPLACE FUNCTION wm_micros(t ag_catalog.agtype) RETURNS timestamptz
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN timestamptz 'epoch' + t::bigint * interval '1 microsecond';
GRANT EXECUTE ON FUNCTION wm_micros(ag_catalog.agtype) TO worldmem_app;

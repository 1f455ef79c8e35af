SET LOCAL ROLE worldmem_owner;

-- requires: wm_micros
-- The as-of condition on one axis: t lies in the half-open [lo, hi), hi NULL = open (a range containment,
-- like facts.valid @> V). The Python twin is graph/ledger/timeline.py `during`.
-- Each parameter is used once, so PostgreSQL inlines these into the calling query (also inside cypher()):
-- a parameter used twice with an expensive argument (an agtype property access has COST 10, 0006) blocks
-- inlining, and a call per edge through the SQL-function executor cost ~0.4 ms per hop query (8 ids).
CREATE OR REPLACE FUNCTION wm_during(lo timestamptz, hi timestamptz, t timestamptz) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN tstzrange(lo, hi, '[)') @> t;

CREATE OR REPLACE FUNCTION wm_during(lo ag_catalog.agtype, hi ag_catalog.agtype, t ag_catalog.agtype) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN wm_during(wm_micros(lo), wm_micros(hi), wm_micros(t));
GRANT EXECUTE ON FUNCTION wm_during(timestamptz, timestamptz, timestamptz) TO worldmem_app;
GRANT EXECUTE ON FUNCTION wm_during(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype) TO worldmem_app;

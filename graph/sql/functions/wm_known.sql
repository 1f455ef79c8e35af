SET LOCAL ROLE worldmem_owner;

-- requires: wm_during, wm_micros
-- The as-of condition on system time: a row recorded at rec and superseded at sup is believed at system time
-- r; r NULL = now (sup IS NULL). Facts, aliases, merges (split_at) and graph edges all use it, in SQL and in
-- Cypher (the agtype overload: AGE passes agtype, times are epoch microseconds). The Python twin is
-- graph/ledger/timeline.py `known` (Question.believes in graph/reads/temporal.py), tested against this one
-- in tests/test_as_of.py. "Believed now" alone is wm_believed (a partial index's predicate must match it).
-- r NULL = now: only a row still open contains +infinity.
CREATE OR REPLACE FUNCTION wm_known(recorded_at timestamptz, superseded_at timestamptz, r timestamptz) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN wm_during(recorded_at, superseded_at, coalesce(r, 'infinity'::timestamptz));

CREATE OR REPLACE FUNCTION wm_known(recorded_at ag_catalog.agtype, superseded_at ag_catalog.agtype, r ag_catalog.agtype)
    RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN wm_known(wm_micros(recorded_at), wm_micros(superseded_at), wm_micros(r));
GRANT EXECUTE ON FUNCTION wm_known(timestamptz, timestamptz, timestamptz) TO worldmem_app;
GRANT EXECUTE ON FUNCTION wm_known(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype) TO worldmem_app;

-- Every LEAKPROOF function we rely on: all of AGE's and other extensions' (anything outside pg_catalog:
-- 0004 marks agtype_eq, agtype_access_operator, graphid_eq; 0008 pg_trgm's similarity operators) and the
-- built-in ts_match_vq (0008). A LEAKPROOF qual may run before the row-level policy, so each one is a
-- security claim; an extension update silently resets them (and new ones would be new claims).
SELECT p.oid::regprocedure::text AS signature, p.procost::float8 AS cost
FROM pg_proc p
WHERE p.proleakproof
  AND (p.pronamespace <> 'pg_catalog'::regnamespace OR p.proname = 'ts_match_vq')
ORDER BY 1

-- What the console role may execute in ag_catalog, with the settings that decide whether a qual may run
-- before the row-level policy (LEAKPROOF, and COST: 0006 keeps agtype_access_operator at 10).
-- Compared with graph/age/console_snapshot.json; an `ALTER EXTENSION age UPDATE` resets all three.
SELECT p.oid::regprocedure::text AS signature, p.proleakproof AS leakproof, p.procost::float8 AS cost
FROM pg_proc p
WHERE p.pronamespace = 'ag_catalog'::regnamespace
  AND has_function_privilege('worldmem_console', p.oid, 'EXECUTE')
ORDER BY 1

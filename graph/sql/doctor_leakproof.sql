-- Every LEAKPROOF function in ag_catalog (the console's or not: a LEAKPROOF operator runs before the policy).
SELECT p.oid::regprocedure::text AS signature, p.procost::float8 AS cost
FROM pg_proc p
WHERE p.pronamespace = 'ag_catalog'::regnamespace AND p.proleakproof
ORDER BY 1

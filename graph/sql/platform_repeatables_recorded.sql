-- Each recorded repeatable, and whether a function of its name still exists in this database.
SELECT r.name, EXISTS (SELECT 1 FROM pg_proc p WHERE p.proname = r.name
                       AND p.pronamespace = 'public'::regnamespace) AS present
FROM schema_repeatables r
ORDER BY r.name

-- Whether migrations were recorded here before repeatable function files existed (no schema_repeatables yet).
SELECT to_regclass('public.schema_migrations') IS NOT NULL AND to_regclass('public.schema_repeatables') IS NULL
    AS before

-- bench.vector_recall: this session's prepared vector statements and how often each ran a generic or a custom
-- plan (psycopg prepares a statement after its fifth run on a connection).
-- Returns: statement, generic_plans, custom_plans
SELECT CASE WHEN statement LIKE '%%p.embedding::vector(%%' THEN 'finder_search_vector'
            ELSE 'finder_search_vector_exact' END AS statement, generic_plans, custom_plans
FROM pg_prepared_statements
WHERE statement LIKE '%%FROM memory_projections p%%'

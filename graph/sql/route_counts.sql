-- route_counts: the owner's rows in every table with an owner_sub column except the tokens (they stay in the
-- directory), one row per table; run as the superuser with app.current_owner set (graph/routing/verify.py).
-- Columns: tbl
SELECT c.relname::text AS tbl
FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'owner_sub' AND NOT a.attisdropped
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
  AND c.relname <> 'api_tokens'
ORDER BY 1

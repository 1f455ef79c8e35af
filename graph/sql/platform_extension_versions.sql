-- The running extensions' versions, for `worldmem doctor` and `db status`. Columns: extname, extversion.
SELECT extname, extversion FROM pg_extension WHERE extname IN ('age', 'vector') ORDER BY extname

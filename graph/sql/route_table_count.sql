-- route_table_count: rows of the owner in {table} (an identifier from route_counts). Columns: n
SELECT count(*) AS n FROM {table} WHERE owner_sub = %(owner)s

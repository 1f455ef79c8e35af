-- transfer_has_rows: whether the owner (row-level security) has any row in one table. Columns: found.
SELECT EXISTS (SELECT 1 FROM {table}) AS found

-- transfer_select: the rows of one table that the owner's row-level security shows, as JSON objects of the
-- given columns, in a stable order. {cols}, {table}, {order}: identifiers from graph/transfer/format.py.
-- Columns: r.
SELECT to_jsonb(x) AS r FROM (SELECT {cols} FROM {table} ORDER BY {order}) x

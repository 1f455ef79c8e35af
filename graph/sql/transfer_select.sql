-- transfer_select: the owner's rows of one table, as JSON objects of the given columns, in a stable order.
-- {cols}, {table}, {order}: identifiers from graph/transfer/format.py. The owner condition is written out:
-- row-level security narrows every owner table but one, registry_namespaces, whose claims every owner's
-- integrations must see (another owner's claim would otherwise travel in this owner's file). Columns: r.
SELECT to_jsonb(x) AS r FROM (SELECT {cols} FROM {table} WHERE owner_sub = wm_owner() ORDER BY {order}) x

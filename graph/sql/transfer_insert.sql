-- transfer_insert: rows of an export into one table of the owner, as they were (both time axes included);
-- the owner column is the transaction's owner (wm_owner(): the default of the tables with row-level
-- security, whose policies' WITH CHECK holds it there, and the only owner registry_namespaces, which has
-- no default, may get). %(rows)s: JSON array of objects with the columns {cols}. Columns: none.
INSERT INTO {table} (owner_sub, {cols})
SELECT wm_owner(), {cols} FROM jsonb_populate_recordset(NULL::{table}, %(rows)s::jsonb)

-- transfer_insert: rows of an export into one table of the owner, as they were (both time axes included);
-- the owner column takes its default (wm_owner()) and the policies' WITH CHECK holds it there.
-- %(rows)s: JSON array of objects with the columns {cols}. Columns: none.
INSERT INTO {table} ({cols}) SELECT {cols} FROM jsonb_populate_recordset(NULL::{table}, %(rows)s::jsonb)

-- transfer_registry_insert: vocabulary keys of an export; a key that exists already (the vocabulary is
-- global) stays as it is. %(rows)s: JSON array of objects with the columns {cols}. Columns: none.
INSERT INTO {table} ({cols}) SELECT {cols} FROM jsonb_populate_recordset(NULL::{table}, %(rows)s::jsonb)
ON CONFLICT (key) DO NOTHING

-- route_vocabulary_add: vocabulary rows from another cluster (route_vocabulary_used) into {table} where its key
-- is missing; a key already there stays as it is. Superuser connection.
INSERT INTO {table} SELECT * FROM jsonb_populate_recordset(NULL::{table}, %(rows)s::jsonb) ON CONFLICT (key) DO NOTHING

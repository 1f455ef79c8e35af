-- sync_entities_insert: create the entities of new entries, set-based (rows: a JSON array of objects).
-- Columns: id, ref, kind, canonical_name, status, merged_into_id, created_at.
INSERT INTO entities (ref, kind, canonical_name, external_id, source_entry_id, backing_ref, created_at,
                      updated_at, run_id)
SELECT r.ref, r.kind, r.name, r.external_id, r.source_entry_id, r.backing_ref, %(at)s, %(at)s, %(run_id)s
FROM jsonb_to_recordset(%(rows)s::jsonb)
     AS r(ref text, kind text, name text, external_id text, source_entry_id text, backing_ref text)
RETURNING id, ref, kind, canonical_name, status, merged_into_id, created_at

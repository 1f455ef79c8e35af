-- batch_entities_insert: many new entities in one statement (as entity_insert, ids chosen by batch_new_ids).
-- %(rows)s is one JSON array of objects (graph/ledger/writer_buffered.py), cheaper to send than an array per column.
INSERT INTO entities (id, ref, kind, canonical_name, description, external_id, created_at, updated_at, run_id)
SELECT id, ref, kind, name, description, external_id, at, at, run_id
FROM jsonb_to_recordset(%(rows)s::jsonb)
     AS r(id uuid, ref text, kind text, name text, description text, external_id text, at timestamptz, run_id text)

-- batch_aliases_insert: many aliases in one statement (as alias_insert); %(rows)s one JSON array of objects.
INSERT INTO entity_aliases (entity_id, namespace, alias, valid_from, recorded_at, source, run_id, op_index)
SELECT entity_id, namespace, alias, valid_from, at, source, run_id, op_index
FROM jsonb_to_recordset(%(rows)s::jsonb)
     AS r(entity_id uuid, namespace text, alias text, valid_from timestamptz, at timestamptz, source text,
          run_id text, op_index integer)

INSERT INTO entities (ref, kind, canonical_name, description, external_id, created_at, updated_at, run_id)
VALUES (%(ref)s, %(kind)s, %(name)s, %(description)s, %(external_id)s, %(at)s, %(at)s, %(run_id)s)
RETURNING id, ref, kind, canonical_name, status, merged_into_id, created_at

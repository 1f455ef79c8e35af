SELECT id, ref, kind, canonical_name, status, merged_into_id, created_at
FROM entities WHERE id = %(id)s

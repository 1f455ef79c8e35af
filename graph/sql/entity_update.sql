UPDATE entities
SET canonical_name = %(name)s, description = coalesce(%(description)s, description),
    external_id = coalesce(%(external_id)s, external_id), updated_at = %(at)s
WHERE id = %(id)s
RETURNING id, ref, kind, canonical_name, status, merged_into_id, created_at

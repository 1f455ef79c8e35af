UPDATE entities SET status = %(status)s, merged_into_id = %(into_id)s, updated_at = %(at)s
WHERE owner_sub = wm_owner() AND id = %(id)s
RETURNING id, ref, kind, canonical_name, status, merged_into_id, created_at

SELECT id, ref, kind, canonical_name, status, merged_into_id, created_at
FROM entities WHERE owner_sub = wm_owner() AND ref = %(ref)s

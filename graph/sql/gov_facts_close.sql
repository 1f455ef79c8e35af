UPDATE facts SET superseded_at = %(at)s, status = %(status)s
WHERE owner_sub = wm_owner() AND id = ANY(%(ids)s) AND wm_believed(superseded_at)
RETURNING id, object_kind, believed

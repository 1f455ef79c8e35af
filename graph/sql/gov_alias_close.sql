UPDATE entity_aliases SET superseded_at = %(at)s
WHERE owner_sub = wm_owner() AND id = ANY(%(ids)s) AND wm_believed(superseded_at)
RETURNING id

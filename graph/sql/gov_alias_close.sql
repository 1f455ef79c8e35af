UPDATE entity_aliases SET superseded_at = %(at)s
WHERE owner_sub = wm_owner() AND id = ANY(%(ids)s) AND superseded_at IS NULL
RETURNING id

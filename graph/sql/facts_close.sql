UPDATE facts SET superseded_at = %(at)s, status = %(status)s, invalidated_by_fact_id = %(invalidated_by)s
WHERE id = ANY(%(ids)s) AND superseded_at IS NULL
RETURNING id, object_kind

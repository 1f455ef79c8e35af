UPDATE facts SET superseded_at = %(at)s, status = %(status)s, invalidated_by_fact_id = %(invalidated_by)s
WHERE id = ANY(%(ids)s) AND wm_believed(superseded_at)
RETURNING id, object_kind

-- facts_close: end the system time of the rows %(ids)s still believed, with their status and the row that
-- invalidated them (NULL: none). Columns: id, object_kind, believed (only a believed relationship has an edge).
UPDATE facts SET superseded_at = %(at)s, status = %(status)s, invalidated_by_fact_id = %(invalidated_by)s
WHERE owner_sub = wm_owner() AND id = ANY(%(ids)s) AND wm_believed(superseded_at)
RETURNING id, object_kind, believed

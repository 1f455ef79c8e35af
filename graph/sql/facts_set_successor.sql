-- Record which row replaced a closed one (set once; the 0018 trigger refuses a change).
UPDATE facts SET superseded_by_fact_id = %(successor)s
WHERE owner_sub = wm_owner() AND id = %(id)s AND superseded_at IS NOT NULL AND superseded_by_fact_id IS NULL
RETURNING id

SELECT * FROM facts WHERE owner_sub = wm_owner() AND id = ANY(%(ids)s) ORDER BY recorded_at, id

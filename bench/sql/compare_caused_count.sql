SELECT count(*) FROM facts WHERE owner_sub = wm_owner() AND caused_by_event_id = ANY(%(ids)s)

SELECT 1 FROM event_types WHERE key = %(key)s

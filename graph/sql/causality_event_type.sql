SELECT key, consequential FROM event_types WHERE key = %(key)s

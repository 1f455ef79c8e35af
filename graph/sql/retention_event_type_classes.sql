-- retention_event_type_classes: the registry class of each event type named in %(keys)s (unknown keys: no
-- row). Columns: key, retention_class.
SELECT key, retention_class FROM event_types WHERE key = ANY(%(keys)s::text[])

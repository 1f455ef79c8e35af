SELECT key
FROM entity_kinds
WHERE key = ANY(%(keys)s)

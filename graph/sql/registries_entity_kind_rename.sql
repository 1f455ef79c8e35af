UPDATE entity_kinds
SET name = %(name)s, description = coalesce(%(description)s, description)
WHERE key = %(key)s
RETURNING key, name, description, privileged, source, trust_tier, state

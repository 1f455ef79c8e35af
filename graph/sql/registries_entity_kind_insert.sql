INSERT INTO entity_kinds (key, name, description, source)
VALUES (%(key)s, %(name)s, %(description)s, %(source)s)
ON CONFLICT (key) DO NOTHING
RETURNING key, name, description, privileged, source, trust_tier, state

INSERT INTO entity_kinds (key, name, description, source, registered_owner, registered_as)
VALUES (%(key)s, %(name)s, %(description)s, %(source)s, %(registered_owner)s, %(registered_as)s)
ON CONFLICT (key) DO NOTHING
RETURNING key, name, description, privileged, source, trust_tier, state, registered_owner, registered_as

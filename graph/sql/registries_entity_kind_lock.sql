SELECT key, name, description, privileged, source, trust_tier, state, registered_owner, registered_as
FROM entity_kinds
WHERE key = %(key)s
FOR UPDATE

SELECT key, name, description, privileged, source, trust_tier, state
FROM entity_kinds
ORDER BY key

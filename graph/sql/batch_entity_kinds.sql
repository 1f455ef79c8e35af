-- batch_entity_kinds: the registered entity kinds among %(keys)s, as registries_entity_kind_get returns one.
SELECT key, name, description, privileged, source, trust_tier, state
FROM entity_kinds
WHERE key = ANY(%(keys)s::text[])

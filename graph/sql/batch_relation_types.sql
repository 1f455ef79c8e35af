-- batch_relation_types: the registered relation types among %(keys)s, as registries_relation_type_get returns one.
SELECT key, name, description, inverse, cardinality, subject_kinds, object_kinds, is_symmetric, is_transitive,
       is_hierarchical, inference_enabled, privileged, source, trust_tier, state
FROM relation_types
WHERE key = ANY(%(keys)s::text[])

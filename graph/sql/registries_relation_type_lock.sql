SELECT key, name, description, inverse, cardinality, subject_kinds, object_kinds, is_symmetric, is_transitive,
       is_hierarchical, inference_enabled, privileged, source, trust_tier, state, registered_owner, registered_as
FROM relation_types
WHERE key = %(key)s
FOR UPDATE

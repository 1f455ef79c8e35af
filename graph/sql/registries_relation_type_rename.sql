UPDATE relation_types
SET name = %(name)s, description = coalesce(%(description)s, description)
WHERE key = %(key)s
RETURNING key, name, description, inverse, cardinality, subject_kinds, object_kinds, is_symmetric, is_transitive,
       is_hierarchical, inference_enabled, privileged, source, trust_tier, state

INSERT INTO relation_types (key, name, description, inverse, cardinality, subject_kinds, object_kinds,
                            is_symmetric, is_transitive, is_hierarchical, source, trust_tier, inference_enabled,
                            registered_owner, registered_as)
VALUES (%(key)s, %(name)s, %(description)s, %(inverse)s, %(cardinality)s, %(subject_kinds)s, %(object_kinds)s,
        %(is_symmetric)s, %(is_transitive)s, %(is_hierarchical)s, %(source)s,
        -- Registered through the API = untrusted: tier 2, and never auto-inferred (clamped).
        CASE WHEN %(source)s = 'core' THEN 0 ELSE 2 END, false, %(registered_owner)s, %(registered_as)s)
ON CONFLICT (key) DO NOTHING
RETURNING key, name, description, inverse, cardinality, subject_kinds, object_kinds, is_symmetric, is_transitive,
       is_hierarchical, inference_enabled, privileged, source, trust_tier, state, registered_owner, registered_as

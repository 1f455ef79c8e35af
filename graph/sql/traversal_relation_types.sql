SELECT key, inverse, is_transitive, inference_enabled, source, trust_tier
FROM relation_types

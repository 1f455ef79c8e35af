-- sync_registry_for_keys: the kinds and predicates a batch names, as registered. Columns: what, key,
-- state, privileged, cardinality, subject_kinds.
SELECT 'kind' AS what, key, state, privileged, NULL::text AS cardinality, NULL::text[] AS subject_kinds
FROM entity_kinds WHERE key = ANY(%(kinds)s::text[])
UNION ALL
SELECT 'predicate', key, state, privileged, cardinality, subject_kinds
FROM relation_types WHERE key = ANY(%(predicates)s::text[])

-- registries_namespace_core: is a namespace also a core key (an entity kind or relation type seeded by the
-- migrations)? `person:` or `status:` as a namespace would read as core vocabulary. Columns: key.
SELECT key FROM entity_kinds WHERE key = %(namespace)s AND source = 'core'
UNION ALL
SELECT key FROM relation_types WHERE key = %(namespace)s AND source = 'core'
LIMIT 1

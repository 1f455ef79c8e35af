-- batch_aliases_of_names: the aliases believed now (superseded_at IS NULL, what wm_known(.., NULL) means)
-- whose alias_norm is lower() of any of %(names)s, with the name asked. Columns: name, namespace, the
-- alias's valid_from and valid_to (alias_valid_from / alias_valid_to), and the
-- entity's columns as entity_by_ref. lower() is the database's, as in wm_resolve (0074) and alias_believed;
-- it is applied first (names), so the join condition on the owner's tables is leakproof and can use
-- entity_aliases_believed / its trigram neighbours ahead of the row-level policy.
WITH names AS MATERIALIZED (
    SELECT name, lower(name) AS norm FROM unnest(%(names)s::text[]) AS n(name)
)
SELECT names.name, a.namespace, a.valid_from AS alias_valid_from, a.valid_to AS alias_valid_to,
       e.id, e.ref, e.kind, e.canonical_name, e.status, e.merged_into_id, e.created_at
FROM names
JOIN entity_aliases a ON a.owner_sub = wm_owner() AND a.alias_norm = names.norm AND wm_believed(a.superseded_at)
JOIN entities e ON e.id = a.entity_id

-- The believed rows of one alias in a namespace (one per holder since migration 0131: an ended holding and the
-- entity that took it over), locked for the rest of the transaction (ending one of them), latest first.
-- Columns: id, entity_id, valid_from, valid_to. Index: entity_aliases_believed (owner_sub, namespace, alias_norm).
SELECT id, entity_id, valid_from, valid_to FROM entity_aliases
WHERE owner_sub = wm_owner() AND namespace = %(namespace)s AND alias_norm = lower(%(alias)s)
  AND wm_believed(superseded_at)
ORDER BY valid_from DESC
FOR UPDATE

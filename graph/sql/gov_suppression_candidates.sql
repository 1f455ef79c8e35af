-- Live markers of one subject and predicate, whatever their value and scope (graph.ledger.suppression
-- compares the values in normal form, and a marker without a scope holds in every scope); a marker set on
-- an entity since merged into the subject still holds.
SELECT id, value_key, scope_entity_id
FROM suppression_markers
WHERE owner_sub = wm_owner() AND predicate = %(predicate)s
  AND lifted_at IS NULL
  AND (subject_id = %(subject_id)s
       OR subject_id IN (SELECT id FROM entities WHERE owner_sub = wm_owner() AND merged_into_id = %(subject_id)s))

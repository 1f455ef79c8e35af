-- batch_believed_by_refs: every row believed now of the owner's entities named by exact ref in %(refs)s (all
-- predicates and scopes), locked for the rest of the transaction, as batch_believed_for_update gives them
-- for ids; the buffered writer filters them per (predicate, scope) as facts_believed_for_update would.
-- Columns: facts.*.
SELECT *
FROM facts
WHERE owner_sub = wm_owner()
  AND subject_id IN (SELECT id FROM entities WHERE owner_sub = wm_owner() AND ref = ANY(%(refs)s::text[]))
  AND wm_believed(superseded_at) AND status = 'active'
ORDER BY subject_id, valid_from
FOR UPDATE OF facts

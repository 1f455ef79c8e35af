-- batch_believed_for_update: every row believed now of the subjects %(ids)s (all predicates and scopes),
-- locked for the rest of the transaction; the buffered writer filters them per (predicate, scope) as
-- facts_believed_for_update would. Columns: facts.*.
SELECT *
FROM facts
WHERE owner_sub = wm_owner() AND subject_id = ANY(%(ids)s::uuid[])
  AND wm_believed(superseded_at) AND status = 'active'
ORDER BY subject_id, valid_from
FOR UPDATE

-- The owner's live suppression markers (rejected beliefs), newest first: the curator must not propose them.
SELECT s.ref AS subject_ref, m.predicate, m.value_key, m.reason
FROM suppression_markers m JOIN entities s ON s.id = m.subject_id
WHERE m.owner_sub = wm_owner() AND m.lifted_at IS NULL
ORDER BY m.recorded_at DESC
LIMIT %(limit)s

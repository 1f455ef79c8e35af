-- Lift the named live markers (the ones graph.ledger.suppression matched in normal form).
UPDATE suppression_markers SET lifted_at = %(at)s, lifted_by_run_id = %(run_id)s
WHERE owner_sub = wm_owner() AND id = ANY(%(ids)s) AND lifted_at IS NULL
RETURNING id

-- The owner's vocabulary proposals in one state, most used first.
SELECT item, key, state, example, run_id, uses, recorded_at
FROM vocabulary_proposals
WHERE owner_sub = wm_owner() AND state = %(state)s
ORDER BY uses DESC, recorded_at

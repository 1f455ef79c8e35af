-- A chat's curator runs, newest first.
SELECT run_id, chat_id, from_seq, upto_seq, status, model, retried, proposed, committed, pending, dropped, error,
       recorded_at
FROM curator_runs
WHERE owner_sub = wm_owner() AND chat_id = %(chat_id)s
ORDER BY recorded_at DESC
LIMIT %(limit)s

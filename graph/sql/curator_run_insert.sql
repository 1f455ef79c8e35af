-- One curator run's outcome (append-only; the latest row of a run id is its state).
INSERT INTO curator_runs (run_id, chat_id, from_seq, upto_seq, status, model, retried, proposed, committed,
                          pending, dropped, error)
VALUES (%(run_id)s, %(chat_id)s, %(from_seq)s, %(upto_seq)s, %(status)s, %(model)s, %(retried)s, %(proposed)s,
        %(committed)s, %(pending)s, %(dropped)s, %(error)s)

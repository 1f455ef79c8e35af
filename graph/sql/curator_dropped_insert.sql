-- An operation the curator did not commit, with why; a retried run records it once.
INSERT INTO curator_dropped_ops (run_id, op_index, op, code, reason)
VALUES (%(run_id)s, %(op_index)s, %(op)s, %(code)s, %(reason)s)
ON CONFLICT (owner_sub, run_id, op_index) DO NOTHING

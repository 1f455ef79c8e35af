-- What the given curator runs dropped, in proposal order (one statement for a page of runs).
SELECT run_id, op_index, op, code, reason FROM curator_dropped_ops
WHERE owner_sub = wm_owner() AND run_id = ANY(%(run_ids)s)
ORDER BY run_id, op_index

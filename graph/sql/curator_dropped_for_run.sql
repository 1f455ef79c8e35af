-- What one curator run dropped, in proposal order.
SELECT op_index, op, code, reason FROM curator_dropped_ops
WHERE owner_sub = wm_owner() AND run_id = %(run_id)s
ORDER BY op_index

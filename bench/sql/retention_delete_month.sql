-- bench.retention_bench: what pruning a month of observed events row by row would cost (the comparison
-- for dropping its partition).
DELETE FROM observed_events WHERE occurred_at >= %(start)s AND occurred_at < %(end)s

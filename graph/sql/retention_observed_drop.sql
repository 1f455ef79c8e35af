-- retention_observed_drop: drop a month's partition once every owner in it is rolled up (checked by
-- wm_observed_drop_month, 0043). Columns: n (rows dropped).
SELECT wm_observed_drop_month(%(month)s::date) AS n

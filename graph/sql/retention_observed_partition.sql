-- retention_observed_partition: the partition of observed_events for the month of %(at)s, created on first
-- use (wm_observed_partition, 0043). Columns: name.
SELECT wm_observed_partition(%(at)s::timestamptz) AS name

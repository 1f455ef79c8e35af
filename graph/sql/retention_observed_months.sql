-- retention_observed_months: the months that have a partition of observed_events. Columns: month.
SELECT m AS month FROM wm_observed_months() AS m

-- retention_rollup_get: one rolled-up series and month of the owner. Columns: stats, rows_rolled, projection_id.
SELECT stats, rows_rolled, projection_id FROM retention_rollups
WHERE owner_sub = wm_owner() AND series_key = %(series_key)s
FOR UPDATE

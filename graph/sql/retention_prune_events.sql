-- retention_prune_events: delete the rolled-up events and their mirror (checks in
-- wm_retention_prune_events, 0044). Columns: n.
SELECT wm_retention_prune_events(%(series_key)s, %(ids)s::uuid[], %(edge)s::timestamptz) AS n

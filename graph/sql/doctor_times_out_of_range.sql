-- Ledger rows with a time outside 0001-01-02..9999-12-30 UTC (graph/timebounds.py): readers clamp them and
-- wm_constrain_time_ranges (migration 0021) refuses to constrain a column while they exist. Columns: what
-- (table.column = value), row (its id).
SELECT 'facts.' || c.name || ' = ' || c.at::text AS what, f.id::text AS row
FROM facts f
CROSS JOIN LATERAL (VALUES ('valid_from', f.valid_from), ('valid_to', f.valid_to), ('recorded_at', f.recorded_at),
                           ('superseded_at', f.superseded_at), ('observed_at', f.observed_at)) AS c (name, at)
WHERE NOT (c.at >= '0001-01-02 00:00:00+00' AND c.at < '9999-12-31 00:00:00+00')
UNION ALL
SELECT 'world_events.' || c.name || ' = ' || c.at::text, e.id::text
FROM world_events e
CROSS JOIN LATERAL (VALUES ('occurred_at', e.occurred_at), ('observed_at', e.observed_at),
                           ('recorded_at', e.recorded_at)) AS c (name, at)
WHERE NOT (c.at >= '0001-01-02 00:00:00+00' AND c.at < '9999-12-31 00:00:00+00')
UNION ALL
SELECT 'entity_aliases.' || c.name || ' = ' || c.at::text, a.id::text
FROM entity_aliases a
CROSS JOIN LATERAL (VALUES ('valid_from', a.valid_from), ('valid_to', a.valid_to), ('recorded_at', a.recorded_at),
                           ('superseded_at', a.superseded_at)) AS c (name, at)
WHERE NOT (c.at >= '0001-01-02 00:00:00+00' AND c.at < '9999-12-31 00:00:00+00')
ORDER BY 1, 2
LIMIT 50

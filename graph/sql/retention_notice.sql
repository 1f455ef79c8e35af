-- retention_notice: for a read about %(subject_id)s at valid time %(valid_time)s: the owner's edge, and the
-- entity's fact rollups of the month of that time. No edge: no row.
-- Columns: edge, rolled_up (whether the entity has any rollup), rollups (jsonb array of {projection_id,
-- predicate, month, text}, by predicate). Index: retention_rollups_subject.
SELECT g.edge,
       EXISTS (SELECT 1 FROM retention_rollups r WHERE r.owner_sub = wm_owner() AND r.subject_id = %(subject_id)s)
           AS rolled_up,
       coalesce((SELECT jsonb_agg(jsonb_build_object('projection_id', p.id, 'predicate', r.predicate,
                                                     'month', r.month, 'text', p.text) ORDER BY r.predicate)
                 FROM retention_rollups r JOIN memory_projections p ON p.id = r.projection_id
                 WHERE r.owner_sub = wm_owner() AND r.subject_id = %(subject_id)s AND r.kind = 'facts'
                   AND r.month = date_trunc('month', %(valid_time)s::timestamptz AT TIME ZONE 'UTC')::date),
                '[]'::jsonb) AS rollups
FROM retention_edges g
WHERE g.owner_sub = wm_owner()

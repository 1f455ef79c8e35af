-- retention_notice_series: for a read of the whole series (%(subject_id)s, %(predicate)s) (its history, or
-- the supersedes chain of one of its rows): the owner's edge and every fact rollup of that series, oldest
-- month first. No edge: no row; an empty array: nothing of the series was ever rolled up.
-- Columns: edge, rollups (jsonb array of {projection_id, predicate, month, text}).
-- Index: retention_rollups_subject (owner_sub, subject_id, month).
SELECT g.edge,
       coalesce((SELECT jsonb_agg(jsonb_build_object('projection_id', p.id, 'predicate', r.predicate,
                                                     'month', r.month, 'text', p.text) ORDER BY r.month)
                 FROM retention_rollups r JOIN memory_projections p ON p.id = r.projection_id
                 WHERE r.owner_sub = wm_owner() AND r.subject_id = %(subject_id)s AND r.kind = 'facts'
                   AND r.predicate = %(predicate)s),
                '[]'::jsonb) AS rollups
FROM retention_edges g
WHERE g.owner_sub = wm_owner()

SET LOCAL ROLE worldmem_owner;

CREATE OR REPLACE FUNCTION wm_notice_series(subject uuid, series text)
    RETURNS TABLE (edge timestamptz, rollups jsonb)
    LANGUAGE sql STABLE AS $fn$
    SELECT g.edge,
           coalesce((SELECT jsonb_agg(jsonb_build_object('projection_id', p.id, 'predicate', r.predicate,
                                                         'month', r.month, 'text', p.text) ORDER BY r.month)
                     FROM public.retention_rollups r JOIN public.memory_projections p ON p.id = r.projection_id
                     WHERE r.owner_sub = public.wm_owner() AND r.subject_id = wm_notice_series.subject
                       AND r.kind = 'facts' AND r.predicate = wm_notice_series.series),
                    '[]'::jsonb)
    FROM public.retention_edges g
    WHERE g.owner_sub = public.wm_owner()
$fn$;
GRANT EXECUTE ON FUNCTION wm_notice_series(uuid, text) TO worldmem_app;

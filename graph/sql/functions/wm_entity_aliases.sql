SET LOCAL ROLE worldmem_owner;

-- getEntity's aliases of `subject` valid at `at` (one array, NULL for none).
CREATE OR REPLACE FUNCTION wm_entity_aliases(subject uuid, at timestamptz)
    RETURNS TABLE (aliases text[])
    LANGUAGE sql STABLE AS $fn$
    SELECT array_agg(al.alias ORDER BY al.namespace, al.alias)
    FROM public.entity_aliases al
    WHERE al.owner_sub = public.wm_owner() AND al.entity_id = wm_entity_aliases.subject AND wm_believed(al.superseded_at)
      AND wm_during(al.valid_from, al.valid_to, wm_entity_aliases.at)
$fn$;
GRANT EXECUTE ON FUNCTION wm_entity_aliases(uuid, timestamptz) TO worldmem_app;

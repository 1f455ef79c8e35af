SET LOCAL ROLE worldmem_owner;

-- Removing an integration deprecates the kinds and predicates of its namespace. The app may not update a
-- key's state (0013 grants it name and description only), so this function does it, and only for the
-- namespace the calling owner's integration of that name claimed: no owner can deprecate another's keys.
CREATE OR REPLACE FUNCTION wm_deprecate_integration(integration_name text) RETURNS TABLE (key text, what text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
BEGIN
    IF wm_owner() IS NULL OR NOT EXISTS (
            SELECT 1 FROM registry_namespaces n
            WHERE n.namespace = integration_name AND n.owner_sub = wm_owner() AND n.integration = integration_name) THEN
        RETURN;
    END IF;
    RETURN QUERY
    WITH kinds AS (
        UPDATE entity_kinds k SET state = 'deprecated'
        WHERE k.key ~ ':' AND split_part(k.key, ':', 1) = integration_name AND k.source = 'integration' AND k.state = 'active'
        RETURNING k.key
    ), preds AS (
        UPDATE relation_types r SET state = 'deprecated'
        WHERE r.key ~ ':' AND split_part(r.key, ':', 1) = integration_name AND r.source = 'integration' AND r.state = 'active'
        RETURNING r.key
    )
    SELECT kinds.key, 'kind'::text FROM kinds UNION ALL SELECT preds.key, 'predicate'::text FROM preds;
END
$fn$;
REVOKE ALL ON FUNCTION wm_deprecate_integration(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_deprecate_integration(text) TO worldmem_app;

-- The sync API for integrations (issue 15): one row per synced source entry, keyed by
-- (integration, source, source entry, kind, external id), holding the last content seen and its hash so a
-- sync diffs set-based; the entity it backs is one per (kind, external id) of the owner.
SET LOCAL ROLE worldmem_owner;

CREATE TABLE sync_entries (
    owner_sub       text NOT NULL DEFAULT wm_owner(),
    integration     text NOT NULL CHECK (integration ~ '^[a-z][a-z0-9_]*$'),
    source          text NOT NULL,
    source_entry_id text NOT NULL,
    kind            text NOT NULL REFERENCES entity_kinds (key),
    external_id     text NOT NULL,
    entity_id       uuid NOT NULL REFERENCES entities (id),
    content_hash    text NOT NULL,
    content         jsonb NOT NULL,
    observed_at     timestamptz NOT NULL,
    first_synced_at timestamptz NOT NULL,
    last_synced_at  timestamptz NOT NULL,
    -- set when the owner removed the integration: the entry's entity and facts are no longer fed
    stale_since     timestamptz,
    PRIMARY KEY (owner_sub, integration, source, source_entry_id, kind, external_id),
    CHECK (last_synced_at >= first_synced_at)
);
CREATE INDEX sync_entries_entity ON sync_entries (owner_sub, entity_id);
-- the entity of a new entry is found by (kind, external id): entities_external leads with external_id
CREATE INDEX entities_kind_external ON entities (owner_sub, kind, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE sync_entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE sync_entries FORCE ROW LEVEL SECURITY;
-- fail-closed: with app.current_owner unset wm_owner() is NULL and matches no row, for reads and writes
CREATE POLICY owner_only ON sync_entries USING (owner_sub = wm_owner()) WITH CHECK (owner_sub = wm_owner());
ALTER TABLE sync_entries ALTER COLUMN owner_sub SET STATISTICS 0;  -- see 0036

-- The app inserts entries and moves their content, times and staleness; the key and entity never change.
GRANT SELECT, INSERT ON sync_entries TO worldmem_app;
GRANT UPDATE (content_hash, content, observed_at, last_synced_at, stale_since) ON sync_entries TO worldmem_app;
GRANT SELECT ON sync_entries TO worldmem_console;

-- Removing an integration deprecates the kinds and predicates of its namespace. The app may not update a
-- key's state (0013 grants it name and description only), so this function does it, and only for the
-- namespace the calling owner's integration of that name claimed: no owner can deprecate another's keys.
CREATE FUNCTION wm_deprecate_integration(integration_name text) RETURNS TABLE (key text, what text)
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
-- (split_part above, not LIKE: `_` in an integration name would be a LIKE wildcard.)

-- How staleness shows wherever facts are read (stateAt, factHistory, the context block, the explorer): each
-- entity a removed integration fed gets the believed fact `stale_since` = the removal time.
INSERT INTO relation_types (key, name, cardinality, description) VALUES
    ('stale_since', 'stale since', 'functional',
     'An integration that fed this entity was removed then: its synced facts are no longer kept up to date')
ON CONFLICT (key) DO NOTHING;

-- The time-range rule of 0021 for the new time columns (the same idempotent block as 0029).
DO $constrain$
DECLARE
    col record;
BEGIN
    FOR col IN
        SELECT c.table_name, c.column_name
        FROM information_schema.columns c
        JOIN pg_tables t ON t.schemaname = c.table_schema AND t.tablename = c.table_name
        WHERE c.table_schema = 'public' AND c.data_type = 'timestamp with time zone'
          AND t.tableowner = 'worldmem_owner'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                          WHERE k.conname = c.table_name || '_' || c.column_name || '_in_range')
        ORDER BY c.table_name, c.column_name
    LOOP
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I >= %L AND %I < %L)',
                       col.table_name, col.table_name || '_' || col.column_name || '_in_range',
                       col.column_name, '0001-01-02 00:00:00+00', col.column_name, '9999-12-31 00:00:00+00');
    END LOOP;
END
$constrain$;

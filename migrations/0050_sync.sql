-- The sync API for integrations: one row per synced source entry, keyed by
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

-- fail-closed: with app.current_owner unset wm_owner() is NULL and matches no row, for reads and writes
CALL wm_owner_only('sync_entries');

-- The app inserts entries and moves their content, times and staleness; the key and entity never change.
GRANT SELECT, INSERT ON sync_entries TO worldmem_app;
GRANT UPDATE (content_hash, content, observed_at, last_synced_at, stale_since) ON sync_entries TO worldmem_app;
GRANT SELECT ON sync_entries TO worldmem_console;
-- (split_part above, not LIKE: `_` in an integration name would be a LIKE wildcard.)

-- How staleness shows wherever facts are read (stateAt, factHistory, the context block, the explorer): each
-- entity a removed integration fed gets the believed fact `stale_since` = the removal time.
INSERT INTO relation_types (key, name, cardinality, description) VALUES
    ('stale_since', 'stale since', 'functional',
     'An integration that fed this entity was removed then: its synced facts are no longer kept up to date')
ON CONFLICT (key) DO NOTHING;

-- The time-range rule of 0021 for the new time columns.
CALL wm_constrain_time_ranges();

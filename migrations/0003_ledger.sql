-- The ledger: entities, facts, aliases, world events, proposals, per-owner clock.
-- Every owner table has row-level security against app.current_owner, set per transaction.
-- Unset (NULL) or empty matches nothing: reads return no rows and writes are refused (fail-closed).
SET LOCAL ROLE worldmem_owner;

CREATE FUNCTION wm_owner() RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN nullif(current_setting('app.current_owner', true), '');

-- The one owner rule of a table, for every migration that creates owner tables: row-level security, also
-- for the table's owner (FORCE), the owner_only policy, and no statistics on owner_sub (0036 says why).
-- A procedure of the migrations, not a repeatable function: they call it, and they run first.
CREATE PROCEDURE wm_owner_only(VARIADIC tables text[])
    LANGUAGE plpgsql AS $proc$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY tables LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY owner_only ON %I USING (owner_sub = wm_owner()) '
                       'WITH CHECK (owner_sub = wm_owner())', t);
        EXECUTE format('ALTER TABLE %I ALTER COLUMN owner_sub SET STATISTICS 0', t);
    END LOOP;
END
$proc$;
REVOKE ALL ON PROCEDURE wm_owner_only(text[]) FROM PUBLIC;

CREATE TABLE owner_clock (
    owner_sub        text PRIMARY KEY DEFAULT wm_owner(),
    last_recorded_at timestamptz  -- NULL until the owner's first commit
);

CREATE TABLE entities (
    id              uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub       text NOT NULL DEFAULT wm_owner(),
    org_id          text,
    ref             text NOT NULL,
    kind            text NOT NULL REFERENCES entity_kinds (key),
    canonical_name  text NOT NULL,
    description     text,
    metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
    status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'merged', 'deprecated')),
    merged_into_id  uuid REFERENCES entities (id),
    source_entry_id text,
    external_id     text,
    content_hash    text,
    last_synced_at  timestamptz,
    backing_ref     text,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    run_id          text,
    CHECK ((status = 'merged') = (merged_into_id IS NOT NULL))
);
CREATE UNIQUE INDEX entities_owner_ref ON entities (owner_sub, ref);
CREATE INDEX entities_owner_kind ON entities (owner_sub, kind);
CREATE INDEX entities_name_trgm ON entities USING gin (canonical_name gin_trgm_ops);
CREATE INDEX entities_external ON entities (owner_sub, external_id) WHERE external_id IS NOT NULL;

CREATE TABLE entity_aliases (
    id            uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub     text NOT NULL DEFAULT wm_owner(),
    entity_id     uuid NOT NULL REFERENCES entities (id),
    namespace     text NOT NULL DEFAULT 'core',
    alias         text NOT NULL,
    alias_norm    text GENERATED ALWAYS AS (lower(alias)) STORED,
    valid_from    timestamptz NOT NULL,
    valid_to      timestamptz,
    recorded_at   timestamptz NOT NULL,
    superseded_at timestamptz,
    source        text NOT NULL,
    run_id        text,
    op_index      integer,
    CHECK (valid_to IS NULL OR valid_to > valid_from),
    CHECK (superseded_at IS NULL OR superseded_at >= recorded_at)
);
CREATE UNIQUE INDEX entity_aliases_believed ON entity_aliases (owner_sub, namespace, alias_norm)
    WHERE superseded_at IS NULL;
CREATE INDEX entity_aliases_entity ON entity_aliases (entity_id);
CREATE INDEX entity_aliases_trgm ON entity_aliases USING gin (alias_norm gin_trgm_ops);

CREATE TABLE world_events (
    id                 uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub          text NOT NULL DEFAULT wm_owner(),
    event_type         text NOT NULL REFERENCES event_types (key),
    occurred_at        timestamptz NOT NULL,
    observed_at        timestamptz,
    recorded_at        timestamptz NOT NULL,
    actor_entity_id    uuid REFERENCES entities (id),
    target_entity_id   uuid REFERENCES entities (id),
    caused_by_event_id uuid REFERENCES world_events (id),
    correlation_id     text,
    causation_kind     text CHECK (causation_kind IN ('direct', 'trigger', 'inferred')),
    intent             text,
    expected_effect    jsonb,
    goal_ref           text,
    intent_outcome     text CHECK (intent_outcome IN ('fulfilled', 'partial', 'unfulfilled')),
    run_id             text,
    chat_id            text,
    tool_call_id       text,
    automation_id      text,
    payload            jsonb NOT NULL DEFAULT '{}'::jsonb,
    summary            text,
    external_ref       text,
    op_index           integer
);
CREATE INDEX world_events_owner_time ON world_events (owner_sub, occurred_at DESC);
CREATE INDEX world_events_caused_by ON world_events (caused_by_event_id);
CREATE INDEX world_events_correlation ON world_events (owner_sub, correlation_id);
CREATE UNIQUE INDEX world_events_external ON world_events (owner_sub, external_ref) WHERE external_ref IS NOT NULL;

CREATE TABLE facts (
    id                     uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub              text NOT NULL DEFAULT wm_owner(),
    subject_id             uuid NOT NULL REFERENCES entities (id),
    predicate              text NOT NULL REFERENCES relation_types (key),
    functional             boolean NOT NULL,
    object_kind            text NOT NULL CHECK (object_kind IN ('literal', 'entity')),
    object_value           jsonb,
    object_entity_id       uuid REFERENCES entities (id),
    valid_from             timestamptz NOT NULL,
    valid_to               timestamptz,
    recorded_at            timestamptz NOT NULL,
    superseded_at          timestamptz,
    observed_at            timestamptz,
    valid                  tstzrange GENERATED ALWAYS AS (tstzrange(valid_from, valid_to, '[)')) STORED,
    believed               boolean NOT NULL,
    source                 text NOT NULL,
    source_trust_tier      smallint NOT NULL DEFAULT 0,
    changed_by             text,
    caused_by_event_id     uuid REFERENCES world_events (id),
    confidence             real NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    memory_type            text,
    status                 text NOT NULL CHECK (status IN ('proposed', 'pending', 'active', 'superseded',
                                                          'invalidated', 'expired', 'archived')),
    scope_entity_id        uuid REFERENCES entities (id),
    scope_kind             text,
    priority               smallint NOT NULL DEFAULT 0,
    supersedes_fact_id     uuid REFERENCES facts (id),
    invalidated_by_fact_id uuid REFERENCES facts (id),
    retention_class        text NOT NULL DEFAULT 'standard',
    run_id                 text,
    op_index               integer,
    evidence               jsonb NOT NULL DEFAULT '{}'::jsonb,
    reason                 text,
    CHECK (valid_to IS NULL OR valid_to > valid_from),
    CHECK (superseded_at IS NULL OR superseded_at >= recorded_at),
    CHECK ((object_kind = 'entity') = (object_entity_id IS NOT NULL)),
    CHECK (status <> 'active' OR superseded_at IS NULL),
    -- Two believed values of one functional (subject, predicate, scope) can never overlap in valid time.
    CONSTRAINT facts_functional_no_overlap EXCLUDE USING gist (
        owner_sub WITH =, subject_id WITH =, predicate WITH =,
        (coalesce(scope_entity_id, '00000000-0000-0000-0000-000000000000'::uuid)) WITH =,
        valid WITH &&
    ) WHERE (superseded_at IS NULL AND functional AND status = 'active')
);
CREATE INDEX facts_current ON facts (owner_sub, subject_id, predicate) WHERE superseded_at IS NULL;
CREATE INDEX facts_subject_history ON facts (subject_id, predicate, recorded_at);
CREATE INDEX facts_object ON facts (object_entity_id) WHERE object_entity_id IS NOT NULL;
CREATE INDEX facts_caused_by ON facts (caused_by_event_id) WHERE caused_by_event_id IS NOT NULL;
CREATE INDEX facts_run ON facts (owner_sub, run_id);
CREATE INDEX facts_pending ON facts (owner_sub) WHERE status = 'pending';

-- One row per committed proposal: the idempotency key (owner, run_id) and its stored result.
CREATE TABLE proposals (
    owner_sub    text NOT NULL DEFAULT wm_owner(),
    run_id       text NOT NULL,
    chat_id      text,
    payload_hash text NOT NULL,
    recorded_at  timestamptz NOT NULL,
    result       jsonb NOT NULL,
    PRIMARY KEY (owner_sub, run_id)
);

CALL wm_owner_only('owner_clock', 'entities', 'entity_aliases', 'world_events', 'facts', 'proposals');

-- Nothing is overwritten, and the grants say so: the app may only close a row's system time and
-- move its lifecycle status; world events are append-only except for the computed intent outcome.
GRANT SELECT, INSERT, UPDATE ON owner_clock, entities, proposals TO worldmem_app;
GRANT SELECT, INSERT ON entity_aliases, world_events, facts TO worldmem_app;
GRANT UPDATE (superseded_at) ON entity_aliases TO worldmem_app;
GRANT UPDATE (superseded_at, status, invalidated_by_fact_id, retention_class) ON facts TO worldmem_app;
GRANT UPDATE (intent_outcome) ON world_events TO worldmem_app;
GRANT SELECT ON entities, entity_aliases, world_events, facts TO worldmem_console;

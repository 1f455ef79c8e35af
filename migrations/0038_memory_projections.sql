-- The finder's texts ("graph = truth, RAG = finder"): one row per thing worth finding by a
-- fuzzy question: an entity whose kind says rag, a derived summary, a retention rollup, an important
-- event's summary. Never every fact, alias or sensor change: those are found structurally. A projection
-- only points at entities; what is true about them is always read from the ledger.
--
-- The embedding column has no fixed dimension so a model change (name or dimension) can re-embed
-- incrementally in place: `embedding_pending` marks rows whose embedding is missing or from another
-- model; vector indexes are partial expression indexes per dimension, added by the migrations that
-- introduce a model.
SET LOCAL ROLE worldmem_owner;

CREATE TABLE memory_projections (
    id                uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub         text NOT NULL DEFAULT wm_owner(),
    source_kind       text NOT NULL CHECK (source_kind IN ('entity', 'summary', 'rollup', 'event_summary')),
    -- what the row stands for, stable across rewrites of its text (an entity id, a rollup's series and
    -- window, an event id): one row per (owner, source_kind, source_key)
    source_key        text NOT NULL CHECK (length(source_key) BETWEEN 1 AND 400),
    text              text NOT NULL CHECK (length(text) BETWEEN 1 AND 8000),
    entity_ids        uuid[] NOT NULL DEFAULT '{}',
    valid_from        timestamptz,
    valid_to          timestamptz,
    importance        real NOT NULL DEFAULT 0.5 CHECK (importance >= 0 AND importance <= 1),
    retention_class   text NOT NULL DEFAULT 'permanent' CHECK (retention_class IN ('permanent', 'windowed')),
    embedding         vector,
    embedding_model   text,
    embedding_pending boolean NOT NULL DEFAULT true,
    embedding_error   text,
    created_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
    CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to > valid_from),
    CHECK (embedding IS NULL OR embedding_model IS NOT NULL),
    UNIQUE (owner_sub, source_kind, source_key)
);
-- The reconciler's queue: rows still to embed, oldest first.
CREATE INDEX memory_projections_pending ON memory_projections (owner_sub, updated_at)
    WHERE embedding_pending;
CREATE INDEX memory_projections_entities ON memory_projections USING gin (entity_ids);

CALL wm_owner_only('memory_projections');
-- Derived data: rewritten when its source changes, deleted when retention or its source drops it.
GRANT SELECT, INSERT, UPDATE, DELETE ON memory_projections TO worldmem_app;
GRANT SELECT ON memory_projections TO worldmem_console;

-- The time-range rule of 0021 for the new time columns.
CALL wm_constrain_time_ranges();

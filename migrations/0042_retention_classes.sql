-- Retention classes: what may ever be pruned, and what a pruned row leaves behind.
--
-- permanent: user assertions, policies, corrections, curated preferences, agent actions with a reason.
--   Never pruned. 'standard', the default of facts.retention_class since 0003, means permanent: renaming
--   it would rewrite every ledger row (and race the writers that set it), so the name stays and the
--   meaning is written down here and in graph/retention/classes.py.
-- windowed: integration-observed state and trivial events. A hot window (default 90 days) is kept in
--   full; older rows are rolled up into a memory_projections summary (source_kind 'rollup') and only
--   then pruned, in the same transaction (wm_retention_prune_facts checks that the rollup was written).
SET LOCAL ROLE worldmem_owner;

ALTER TABLE facts ADD CONSTRAINT facts_retention_class_known
    CHECK (retention_class IN ('standard', 'permanent', 'windowed'));

-- Event types carry their class in the registry ('standard' = permanent, as for facts): a windowed type's
-- events can be recorded as observations, kept in observed_events (0043, partitioned by month) instead of
-- the causal log world_events. IF NOT EXISTS: code mode's migration adds the same column with the same
-- meaning (and a database that already ran it must still take this one).
ALTER TABLE event_types ADD COLUMN IF NOT EXISTS retention_class text NOT NULL DEFAULT 'standard';
ALTER TABLE event_types ADD CONSTRAINT event_types_retention_class_known
    CHECK (retention_class IN ('standard', 'permanent', 'windowed'));
INSERT INTO event_types (key, name, description, retention_class) VALUES
    ('observation', 'Observation', 'Observed state from an integration or a sensor (windowed)', 'windowed')
ON CONFLICT (key) DO UPDATE SET retention_class = 'windowed';

-- Pruning deletes windowed rows that older rows of the same series still point at (a truncated reading
-- names the open row it was split from). Those links become NULL instead of blocking the delete; a row
-- that is not windowed never loses a link, because wm_retention_prune_facts never deletes a row that a
-- non-windowed row points at. The app still has no DELETE on facts.
ALTER TABLE facts
    DROP CONSTRAINT facts_supersedes_fact_id_fkey,
    ADD CONSTRAINT facts_supersedes_fact_id_fkey FOREIGN KEY (supersedes_fact_id)
        REFERENCES facts (id) ON DELETE SET NULL,
    DROP CONSTRAINT facts_superseded_by_fact_id_fkey,
    ADD CONSTRAINT facts_superseded_by_fact_id_fkey FOREIGN KEY (superseded_by_fact_id)
        REFERENCES facts (id) ON DELETE SET NULL,
    DROP CONSTRAINT facts_invalidated_by_fact_id_fkey,
    ADD CONSTRAINT facts_invalidated_by_fact_id_fkey FOREIGN KEY (invalidated_by_fact_id)
        REFERENCES facts (id) ON DELETE SET NULL;
-- ON DELETE SET NULL looks the referencing rows up: without these (supersedes_fact_id has one since
-- 0007), one sequential scan of facts per pruned row.
CREATE INDEX facts_superseded_by ON facts (superseded_by_fact_id) WHERE superseded_by_fact_id IS NOT NULL;
CREATE INDEX facts_invalidated_by ON facts (invalidated_by_fact_id) WHERE invalidated_by_fact_id IS NOT NULL;
-- wm_retention_held (0043) asks per candidate row whether a suppression marker or a merge holds it.
CREATE INDEX suppression_markers_fact ON suppression_markers (fact_id);
CREATE INDEX entity_merge_moves_old ON entity_merge_moves (old_id) WHERE old_id IS NOT NULL;
CREATE INDEX entity_merge_moves_new ON entity_merge_moves (new_id) WHERE new_id IS NOT NULL;
-- The retention job's scan: an owner's windowed rows by series.
CREATE INDEX facts_windowed ON facts (owner_sub, subject_id, predicate, valid_from)
    WHERE retention_class = 'windowed';

-- One row per rolled-up series and month: the statistics a rollup's text is rendered from, so a later
-- run that finds more rows of the same month (late observations) merges instead of overwriting.
-- series_key: 'fact:<subject uuid>:<predicate>:<YYYY-MM>' or 'events:<event type>:<target uuid|->:<YYYY-MM>',
-- also the memory_projections source_key of its text.
CREATE TABLE retention_rollups (
    owner_sub     text NOT NULL DEFAULT wm_owner(),
    series_key    text NOT NULL CHECK (length(series_key) BETWEEN 1 AND 400),
    kind          text NOT NULL CHECK (kind IN ('facts', 'events')),
    subject_id    uuid REFERENCES entities (id),
    predicate     text,
    event_type    text,
    month         date NOT NULL CHECK (extract(day FROM month) = 1),
    stats         jsonb NOT NULL,
    rows_rolled   bigint NOT NULL CHECK (rows_rolled >= 0),
    projection_id uuid,  -- NULL for an events-month marker (no text of its own)
    written_at    timestamptz NOT NULL DEFAULT now(),  -- the writing transaction's start: see 0043
    PRIMARY KEY (owner_sub, series_key)
);
CREATE INDEX retention_rollups_subject ON retention_rollups (owner_sub, subject_id, month)
    WHERE subject_id IS NOT NULL;

-- How far an owner's windowed rows have been pruned: reads about a time before the edge say that the
-- answer comes from rollups, not from the raw rows.
CREATE TABLE retention_edges (
    owner_sub  text PRIMARY KEY DEFAULT wm_owner(),
    edge       timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CALL wm_owner_only('retention_rollups', 'retention_edges');

GRANT SELECT, INSERT, UPDATE ON retention_rollups, retention_edges TO worldmem_app;
GRANT SELECT ON retention_rollups, retention_edges TO worldmem_console;

-- The time-range rule of 0021 for the new time columns.
CALL wm_constrain_time_ranges();

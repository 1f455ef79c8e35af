-- Code mode: conventions and decisions as topic entities whose text is one functional fact,
-- scoped to a repo, project or folder (or global: no scope), so that per (topic, scope) exactly one text is
-- believed and the context builder resolves repo > project/folder > global (graph/codemode/conventions.py);
-- build and test results as world events of the retention class 'windowed' (pruned and rolled up after a
-- hot window by the retention job, like facts.retention_class = 'windowed'), never as durable facts.
-- No owner table is added, so no new row-level security: the ledger's tables already have it.
SET LOCAL ROLE worldmem_owner;

INSERT INTO entity_kinds (key, name, description, privileged) VALUES
    ('folder', 'Folder', 'A folder of work on disk (a workspace) that holds repositories', false),
    ('convention', 'Convention', 'A topic of a coding or working convention (e.g. the test runner); its text '
                                 'is the believed `convention` fact, scoped to a repo, project or folder, or global',
     false),
    ('decision', 'Decision', 'A topic of a decision taken (e.g. no ORM); its text is the believed `decision` '
                             'fact, scoped like a convention', false)
ON CONFLICT (key) DO NOTHING;

INSERT INTO relation_types (key, name, cardinality, subject_kinds, object_kinds, inverse, description,
                            is_symmetric, is_transitive, is_hierarchical, inference_enabled, privileged) VALUES
    ('convention', 'convention', 'functional', ARRAY['convention'], NULL, NULL,
     'What the convention says, one text per scope (repo, project, folder or global)',
     false, false, false, false, false),
    ('decision', 'decision', 'functional', ARRAY['decision'], NULL, NULL,
     'What was decided (and why), one text per scope (repo, project, folder or global)',
     false, false, false, false, false)
ON CONFLICT (key) DO NOTHING;

INSERT INTO event_types (key, name, consequential) VALUES
    ('build_result', 'Build result', false),
    ('conventions_exported', 'Conventions exported as AGENTS.md text', false)
ON CONFLICT (key) DO NOTHING;

-- The retention class of an event is its type's: build and test results are windowed. IF NOT EXISTS: the
-- sync and retention work may add the same column (the same name and meaning as facts.retention_class).
ALTER TABLE event_types ADD COLUMN IF NOT EXISTS retention_class text NOT NULL DEFAULT 'standard';
UPDATE event_types SET retention_class = 'windowed' WHERE key IN ('build_result', 'test_result');
ALTER TABLE world_events ADD COLUMN IF NOT EXISTS retention_class text NOT NULL DEFAULT 'standard';

-- The latest build and test results of a repo (graph/sql/codemode_build_state.sql).
CREATE INDEX world_events_windowed_target ON world_events (owner_sub, target_entity_id, event_type, occurred_at DESC)
    WHERE retention_class = 'windowed' AND target_entity_id IS NOT NULL;

-- The conventions and decisions believed now (graph/sql/codemode_conventions.sql): a handful per owner,
-- read on every code-mode turn, so a partial index instead of a scan of the owner's facts by predicate.
CREATE INDEX facts_codemode ON facts (owner_sub, predicate) WHERE superseded_at IS NULL
    AND predicate IN ('convention', 'decision');

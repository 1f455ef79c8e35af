-- Contacts and commitments as graph-backed domains (graph/domains/).
--
-- 1. `due`: when a commitment (a task or an issue) is due, a functional attribute like `status`, so its
--    history is bitemporal like every other fact and pendingReview can ask about overdue ones.
-- 2. contact_merge_suggestions: a contact upsert that could not merge by itself records why two person
--    entities may be one (a shared identity seen by a token that may not govern, or the same name with
--    no shared identity). pendingReview shows each pair as a merge suggestion (mergeEntities /
--    dismissMergeSuggestion), and a dismissed, merged or split pair is not shown again. Append-only for
--    the app: a suggestion is never changed; the owner's answer is recorded by governance.
SET LOCAL ROLE worldmem_owner;

INSERT INTO relation_types (key, name, cardinality, subject_kinds, object_kinds, inverse, description) VALUES
    ('due', 'due', 'functional', ARRAY['task','issue'], NULL, NULL,
     'When a commitment is due (an ISO 8601 date or date-time; a date alone: by the end of that day, UTC)')
ON CONFLICT (key) DO NOTHING;

CREATE TABLE contact_merge_suggestions (
    id          uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub   text NOT NULL DEFAULT wm_owner(),
    low_id      uuid NOT NULL REFERENCES entities (id),
    high_id     uuid NOT NULL REFERENCES entities (id),
    signal      text NOT NULL CHECK (signal IN ('shared_identity', 'same_name')),
    detail      text NOT NULL,
    recorded_at timestamptz NOT NULL
        CONSTRAINT contact_merge_suggestions_recorded_at_in_range
        CHECK (recorded_at >= '0001-01-02 00:00:00+00' AND recorded_at < '9999-12-31 00:00:00+00'),
    run_id      text NOT NULL,
    CHECK (low_id < high_id)
);
-- one row per pair: the first signal is kept, a second upsert of the same pair changes nothing
CREATE UNIQUE INDEX contact_merge_suggestions_pair ON contact_merge_suggestions (owner_sub, low_id, high_id);

-- Fail closed: unset app.current_owner matches no row, for reads and writes.
CALL wm_owner_only('contact_merge_suggestions');

-- The app inserts and reads (no UPDATE, no DELETE: nothing is overwritten); the console reads.
GRANT SELECT, INSERT ON contact_merge_suggestions TO worldmem_app;
GRANT SELECT ON contact_merge_suggestions TO worldmem_console;

-- Governance: the owner said "no" to a merge suggestion. The pair is two things and is never suggested
-- again (in either order). The pair is stored ordered (low_id < high_id), so one unique index covers
-- both orders; a second dismissal of the same pair changes nothing. Nothing is overwritten or deleted.
SET LOCAL ROLE worldmem_owner;

CREATE TABLE merge_dismissals (
    id          uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub   text NOT NULL DEFAULT wm_owner(),
    low_id      uuid NOT NULL REFERENCES entities (id),
    high_id     uuid NOT NULL REFERENCES entities (id),
    reason      text,
    recorded_at timestamptz NOT NULL,
    run_id      text NOT NULL,
    event_id    uuid NOT NULL REFERENCES world_events (id),  -- the governance event that recorded it
    CHECK (low_id < high_id)
);
CREATE UNIQUE INDEX merge_dismissals_pair ON merge_dismissals (owner_sub, low_id, high_id);

CALL wm_owner_only('merge_dismissals');

-- Append-only for the app: a dismissal is never changed.
GRANT SELECT, INSERT ON merge_dismissals TO worldmem_app;
GRANT SELECT ON merge_dismissals TO worldmem_console;

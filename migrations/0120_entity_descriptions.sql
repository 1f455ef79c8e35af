-- Entity names and descriptions over system time: getEntity as known at an instant answers with the name
-- and description known then. The entity row keeps what is known now (every read of now stays as it is);
-- a rename or a new description keeps what the entity said before here, with the system time it was known
-- ([recorded_at, superseded_at), as every ledger row). Written by entity_update.sql in the same statement;
-- only changes write (creating an entity writes nothing here), so bulk inserts cost nothing more. Names and
-- descriptions changed before this migration were overwritten then and are not recoverable.
SET LOCAL ROLE worldmem_owner;

CREATE TABLE entity_descriptions (
    id             uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub      text NOT NULL DEFAULT wm_owner(),
    entity_id      uuid NOT NULL REFERENCES entities (id),
    canonical_name text NOT NULL,
    description    text,
    recorded_at    timestamptz NOT NULL
        CONSTRAINT entity_descriptions_recorded_at_in_range
        CHECK (recorded_at >= '0001-01-02 00:00:00+00' AND recorded_at < '9999-12-31 00:00:00+00'),
    superseded_at  timestamptz NOT NULL,
    run_id         text,
    CHECK (superseded_at >= recorded_at)
);
-- the name known at a system time: the entity's rows by when they stopped being known
CREATE INDEX entity_descriptions_entity ON entity_descriptions (owner_sub, entity_id, superseded_at);

-- Fail closed: unset app.current_owner matches no row, for reads and writes.
ALTER TABLE entity_descriptions ENABLE ROW LEVEL SECURITY;
ALTER TABLE entity_descriptions FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_only ON entity_descriptions USING (owner_sub = wm_owner()) WITH CHECK (owner_sub = wm_owner());
-- No planner statistics on the owner column (0036, issue 16).
ALTER TABLE entity_descriptions ALTER COLUMN owner_sub SET STATISTICS 0;

-- Append-only for the app (what was known is never changed); the console reads.
GRANT SELECT, INSERT ON entity_descriptions TO worldmem_app;
GRANT SELECT ON entity_descriptions TO worldmem_console;

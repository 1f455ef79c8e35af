-- Erasure: the owner's request to make the memory really lose an entity (or one predicate of it), with a
-- receipt that says what went and never what it was (graph/erasure/, docs/erasure.md).
--
-- The ledger is append-only for the app: worldmem_app holds no DELETE on any ledger table and the facts
-- guard (0018) refuses rewriting a closed row. Erasure is the one deliberate exception, and it is narrow:
-- the functions below run as worldmem_owner (SECURITY DEFINER), which the app cannot become (no membership)
-- and cannot imitate (the guard's `pruning` branch trusts current_user, not a setting the app could set).
-- They delete only the rows of the calling owner (every table forces row-level security, also for
-- worldmem_owner), only what the named ref reaches, and always write a receipt in the same transaction.

-- The graph mirror's label tables belong to the superuser; erasure deletes vertices and edges through
-- their parents (policies of the parents apply, so only the owner's), as worldmem_owner.
GRANT SELECT, DELETE ON worldgraph._ag_label_vertex, worldgraph._ag_label_edge TO worldmem_owner;
GRANT SELECT ON worldgraph."Entity", worldgraph."Event", worldgraph."REL", worldgraph."CAUSED" TO worldmem_owner;
GRANT DELETE ON worldgraph."Entity", worldgraph."Event", worldgraph."REL", worldgraph."CAUSED" TO worldmem_owner;
GRANT USAGE ON SCHEMA worldgraph TO worldmem_owner;

SET LOCAL ROLE worldmem_owner;

-- One receipt per erasure, which is also the tombstone: `target_hashes` are SHA-256 digests of the erased
-- refs (hex), so a later read of the ref can say "erased on D" without the ref itself being kept. The
-- reason is kept with every erased term replaced by [erased]; counts are per table and per graph label.
CREATE TABLE erasures (
    id             uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_sub      text NOT NULL DEFAULT wm_owner(),
    kind           text NOT NULL CHECK (kind IN ('entity', 'facts')),
    target_hashes  text[] NOT NULL,
    predicate      text,
    token_id       uuid,
    token_kind     text NOT NULL,
    reason         text NOT NULL DEFAULT '',
    erased_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    counts         jsonb NOT NULL,
    receipt_hash   text NOT NULL
);
CREATE INDEX erasures_owner_targets ON erasures USING gin (target_hashes);
CREATE INDEX erasures_owner_time ON erasures (owner_sub, erased_at DESC);
ALTER TABLE erasures ENABLE ROW LEVEL SECURITY;
ALTER TABLE erasures FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_only ON erasures USING (owner_sub = wm_owner()) WITH CHECK (owner_sub = wm_owner());
ALTER TABLE erasures ALTER COLUMN owner_sub SET STATISTICS 0;  -- see 0036
GRANT SELECT ON erasures TO worldmem_app;  -- written only by wm_erase

-- Surviving rows that lost a link to an erased row (a cause, a predecessor): explainChange says that its
-- chain was cut there, and by which erasure, instead of ending as if nothing had been before.
CREATE TABLE erasure_cuts (
    owner_sub   text NOT NULL DEFAULT wm_owner(),
    row_id      uuid NOT NULL,
    row_kind    text NOT NULL CHECK (row_kind IN ('fact', 'event')),
    link        text NOT NULL,
    erasure_id  uuid NOT NULL REFERENCES erasures (id),
    PRIMARY KEY (owner_sub, row_id, link, erasure_id)
);
ALTER TABLE erasure_cuts ENABLE ROW LEVEL SECURITY;
ALTER TABLE erasure_cuts FORCE ROW LEVEL SECURITY;
CREATE POLICY owner_only ON erasure_cuts USING (owner_sub = wm_owner()) WITH CHECK (owner_sub = wm_owner());
ALTER TABLE erasure_cuts ALTER COLUMN owner_sub SET STATISTICS 0;
GRANT SELECT ON erasure_cuts TO worldmem_app;

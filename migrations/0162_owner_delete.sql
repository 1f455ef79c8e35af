-- Deleting an owner: everything of the owner, tokens included, in one transaction, with a receipt kept
-- outside the owner's data (graph/erasure/owner.py, docs/erasure.md).
SET LOCAL ROLE worldmem_owner;

-- Receipts of deleted owners: no owner column, no policy, no grant to the app or the console. Only the
-- administrator (the database's superuser) reads it. The owner is kept as a SHA-256 digest, so the
-- receipt can be matched to a name someone already knows, without naming anyone.
CREATE TABLE owner_deletions (
    id            uuid PRIMARY KEY DEFAULT uuidv7(),
    owner_hash    text NOT NULL,
    requested_by  text NOT NULL CHECK (requested_by IN ('admin', 'owner')),
    deleted_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    counts        jsonb NOT NULL,
    receipt_hash  text NOT NULL
);
REVOKE ALL ON owner_deletions FROM PUBLIC;

-- Bearer tokens of the GraphQL API, stored as sha256 hashes only.
-- No RLS: a request is looked up by its token before anyone knows its owner. The app can only read;
-- tokens are created and revoked with the admin connection (`worldmem token create`).
SET LOCAL ROLE worldmem_owner;

CREATE TABLE api_tokens (
    id            uuid PRIMARY KEY DEFAULT uuidv7(),
    token_hash    text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    owner_sub     text NOT NULL CHECK (owner_sub ~ '^[A-Za-z0-9][A-Za-z0-9_.@:|+\-]{0,199}$'),
    can_import    boolean NOT NULL DEFAULT false,
    can_integrate boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    revoked_at    timestamptz,
    CHECK (revoked_at IS NULL OR revoked_at >= created_at)
);
CREATE INDEX api_tokens_owner ON api_tokens (owner_sub);

GRANT SELECT ON api_tokens TO worldmem_app;

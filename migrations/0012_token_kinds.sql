-- Trust is a property of the token: every token has a kind, and an integration token a name.
-- owner       the person (explorer, chat governance); writes as source `user`, tier 0
-- agent       the chat agent and the curator; writes as source `agent`, tier 1
-- integration a feeder named `name`; writes as source `integration:<name>`, tier 2
-- Tokens made before this migration were all the owner's, so they become kind owner.
-- Only an owner token may name the system time (can_import): an import is the owner's own data.
-- An integration token always registers (into its own namespace), so can_integrate is true for it.
SET LOCAL ROLE worldmem_owner;

ALTER TABLE api_tokens
    ADD COLUMN kind text NOT NULL DEFAULT 'owner' CHECK (kind IN ('owner', 'agent', 'integration')),
    ADD COLUMN name text CHECK (name ~ '^[a-z][a-z0-9_]{0,49}$'),
    ADD CONSTRAINT api_tokens_name_iff_integration CHECK ((kind = 'integration') = (name IS NOT NULL)),
    ADD CONSTRAINT api_tokens_import_is_owner CHECK (kind = 'owner' OR NOT can_import),
    ADD CONSTRAINT api_tokens_integration_registers CHECK (kind <> 'integration' OR can_integrate),
    ADD CONSTRAINT api_tokens_agent_registers_nothing CHECK (kind <> 'agent' OR NOT can_integrate);

-- The kind no longer has a default: whoever creates a token says which one it is.
ALTER TABLE api_tokens ALTER COLUMN kind DROP DEFAULT;

-- Who registered a vocabulary key. The vocabulary stays global (facts reference keys), but a
-- key belongs to the principal that registered it: only that principal (owner + token kind, and the
-- integration's name) may rename it or change its description; others may only use it or register the
-- identical definition. Keys seeded by migrations and keys registered by the admin's own tools have no
-- registrant (NULL): core keys never change, admin keys change only through the admin's tools.
--
-- An integration token registers only under its own namespace `<name>:`. The first integration token to do
-- so claims the namespace for its owner, so one owner's integration cannot claim a key, its cardinality or
-- its name in another owner's integration's namespace.
SET LOCAL ROLE worldmem_owner;

ALTER TABLE entity_kinds
    ADD COLUMN registered_owner text,
    ADD COLUMN registered_as text CHECK (registered_as ~ '^(owner|agent|integration:[a-z][a-z0-9_]*)$'),
    ADD CONSTRAINT entity_kinds_registrant CHECK ((registered_owner IS NULL) = (registered_as IS NULL));
ALTER TABLE relation_types
    ADD COLUMN registered_owner text,
    ADD COLUMN registered_as text CHECK (registered_as ~ '^(owner|agent|integration:[a-z][a-z0-9_]*)$'),
    ADD CONSTRAINT relation_types_registrant CHECK ((registered_owner IS NULL) = (registered_as IS NULL));

CREATE TABLE registry_namespaces (
    namespace   text PRIMARY KEY CHECK (namespace ~ '^[a-z][a-z0-9_]*$'),
    owner_sub   text NOT NULL,
    integration text NOT NULL CHECK (integration ~ '^[a-z][a-z0-9_]*$'),
    claimed_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- The app claims namespaces while registering; nobody reassigns or frees one (no UPDATE, no DELETE).
GRANT SELECT, INSERT ON registry_namespaces TO worldmem_app;

-- Registration changes only a key's name and description (graph/sql/registries_*_rename.sql); the app may
-- not rewrite a key's registrant, cardinality, flags or trust tier after the fact.
REVOKE UPDATE ON entity_kinds, relation_types FROM worldmem_app;
GRANT UPDATE (name, description) ON entity_kinds, relation_types TO worldmem_app;

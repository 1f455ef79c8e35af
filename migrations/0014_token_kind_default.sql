-- A token created without a kind is an owner token, as every token was before 0012. Tooling that predates
-- token kinds (scripts, branches merged later, an older `worldmem token create` against a newer database)
-- then keeps working instead of failing on NOT NULL; `worldmem token create` always names the kind.
SET LOCAL ROLE worldmem_owner;

ALTER TABLE api_tokens ALTER COLUMN kind SET DEFAULT 'owner';

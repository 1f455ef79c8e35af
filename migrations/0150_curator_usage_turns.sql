-- How many chat turns each curator LLM call read, so its tokens can be read per turn (curatorUsage). Rows
-- written before this column existed say 0: unknown, and left out of the per-turn figures.
SET LOCAL ROLE worldmem_owner;

ALTER TABLE curator_usage ADD COLUMN turns integer NOT NULL DEFAULT 0 CHECK (turns >= 0);

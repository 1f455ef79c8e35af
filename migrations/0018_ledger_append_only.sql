-- The ledger's system time moves forward only, enforced by the database rather than by the app's care.
-- Column grants (0003) let the app close a row (superseded_at, status); they could not say *how*: the app
-- role could move a closed row's superseded_at later (observed), rewriting what was known when.
SET LOCAL ROLE worldmem_owner;

-- Which row replaced a closed one. supersedes_fact_id on the new row names only one closed row; a new
-- value that closes several rows (or a split that leaves pieces) records each closed row's successor here.
ALTER TABLE facts ADD COLUMN superseded_by_fact_id uuid REFERENCES facts (id);
GRANT UPDATE (superseded_by_fact_id) ON facts TO worldmem_app;

-- causedBy names an event by id or by external ref; events.lookup does one indexed lookup each (the
-- primary key, world_events_external), so nothing new is needed here for it.

-- Full text of fact values within one owner by an index that holds both conditions. Without statistics on
-- owner_sub (0036) the policy's `owner_sub = wm_owner()` is estimated at 0.5 % of a table, so a btree leading
-- with owner_sub (facts_run) looks cheaper than a GIN index that spans every owner, and every full-text search
-- read all of the owner's rows and filtered with @@. A GIN index on (owner_sub, tsvector) (btree_gin) answers
-- `owner_sub = wm_owner() AND tsv @@ q` in one bitmap scan. Search does not compare the query with fact values
-- by trigrams (typos are found by names, aliases and meaning), so value_text has no index.
-- Without GIN's pending list (fastupdate off): rows written since the last vacuum would wait in an unsorted
-- list that every scan reads whole and that the planner prices accordingly, so right after an owner's bulk
-- import it read all of the owner's rows by a btree instead (2.5-8.9 ms against 0.04-0.6 ms). Cost: each
-- current literal fact updates the GIN tree at once (a few words) instead of appending to the list.
-- Runs as the migrating superuser for the extension, then as the owner role like every migration.
CREATE EXTENSION IF NOT EXISTS btree_gin;
SET LOCAL ROLE worldmem_owner;

CREATE INDEX facts_owner_value_tsv ON facts USING gin (owner_sub, value_tsv) WITH (fastupdate = off)
    WHERE superseded_at IS NULL AND status = 'active';

-- Full text within one owner by an index that holds both conditions (issue 11's search target at 1M facts,
-- issue 16's fresh owner). Without statistics on owner_sub (0036) the policy's `owner_sub = wm_owner()` is
-- estimated at 0.5 % of a table, so a btree leading with owner_sub (facts_run; memory_projections' unique
-- key) looks cheaper than a GIN index that spans every owner, and every full-text search read all of the
-- owner's rows and filtered with @@ (measured: bench/README.md, "The finder"). A GIN index on
-- (owner_sub, tsvector) (btree_gin) answers `owner_sub = wm_owner() AND tsv @@ q` in one bitmap scan.
-- Runs as the migrating superuser for the extension, then as the owner role like every migration.
CREATE EXTENSION IF NOT EXISTS btree_gin;
SET LOCAL ROLE worldmem_owner;

CREATE INDEX facts_owner_value_tsv ON facts USING gin (owner_sub, value_tsv)
    WHERE superseded_at IS NULL AND status = 'active';
CREATE INDEX memory_projections_owner_tsv_german ON memory_projections
    USING gin (owner_sub, to_tsvector('german'::regconfig, text));
CREATE INDEX memory_projections_owner_tsv_english ON memory_projections
    USING gin (owner_sub, to_tsvector('english'::regconfig, text));

-- Replaced: the owner-less full-text indexes, and the trigram index over fact values (search no longer
-- compares the query with values by trigrams: that was issue 11's suspected p99 of 0.6-0.8 s; typos are
-- found by names, aliases and meaning). Fewer indexes per fact write, too.
DROP INDEX facts_value_tsv;
DROP INDEX facts_value_trgm;
DROP INDEX memory_projections_tsv_german;
DROP INDEX memory_projections_tsv_english;
-- A copy of the unique key (owner_sub, source_kind, source_key) of 0038.
DROP INDEX memory_projections_source;

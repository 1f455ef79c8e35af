-- Projection full text as an index condition under row-level security (issue 16, issue 11's search target).
-- Measured at bench-a's 74,000 projections (bench/README.md, "Search speed"): `to_tsvector(...) @@ q` is
-- not LEAKPROOF (to_tsvector is not), so PostgreSQL evaluated it only after the owner policy: the
-- (owner_sub, to_tsvector) GIN indexes of 0040 were used for `owner_sub = wm_owner()` alone and every one of
-- the owner's texts was parsed again per search (5.1 s). As 0008 does for names and fact values, the
-- matched form is a stored generated column: `tsv @@ q` calls only ts_match_vq (LEAKPROOF since 0008), so
-- both columns of the index are conditions, and ts_rank reads the stored vector instead of parsing.
SET LOCAL ROLE worldmem_owner;

ALTER TABLE memory_projections
    ADD COLUMN tsv_german tsvector GENERATED ALWAYS AS (to_tsvector('german'::regconfig, text)) STORED,
    ADD COLUMN tsv_english tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED;

CREATE INDEX memory_projections_owner_tsv_de ON memory_projections USING gin (owner_sub, tsv_german);
CREATE INDEX memory_projections_owner_tsv_en ON memory_projections USING gin (owner_sub, tsv_english);

-- Replaced by the two above (same keys, but over the stored columns).
DROP INDEX memory_projections_owner_tsv_german;
DROP INDEX memory_projections_owner_tsv_english;

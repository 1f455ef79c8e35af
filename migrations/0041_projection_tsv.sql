-- Projection full text in both of the owner's languages (a query is matched against the German and the
-- English stemming of every text, so "Katzen" finds "Katze" and "feeding" finds "feed"), as stored generated
-- columns: `to_tsvector(...) @@ q` is not LEAKPROOF (to_tsvector is not), so under the owner policy an index
-- on the expression served `owner_sub = wm_owner()` alone and every one of the owner's texts was parsed again
-- per search (5.1 s at 74,000 projections). `tsv @@ q` calls only ts_match_vq (LEAKPROOF since 0008), and
-- ts_rank reads the stored vector instead of parsing. Their indexes are 0078's.
SET LOCAL ROLE worldmem_owner;

ALTER TABLE memory_projections
    ADD COLUMN tsv_german tsvector GENERATED ALWAYS AS (to_tsvector('german'::regconfig, text)) STORED,
    ADD COLUMN tsv_english tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED;

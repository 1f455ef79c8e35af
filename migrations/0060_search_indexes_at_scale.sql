-- searchWorldMemory's lists by indexes that stay fast at 6,000 and at 100,000 entities (issue 16, issue 13's
-- search at scale, issue 11's p95 target). Measured as worldmem_app under row-level security with EXPLAIN
-- (ANALYZE) on bench.search_breakdown's world (two owners x 3,000 people) and bench.search_scale's
-- (100,000 entities, 74,000 projections); before/after plans in bench/README.md.
SET LOCAL ROLE worldmem_owner;

-- 1. Full text: the (owner_sub, tsvector) GIN indexes of 0040/0041 without GIN's pending list. With
-- fastupdate (the default) rows written since the last vacuum wait in an unsorted list that every scan reads
-- whole and that the planner prices accordingly; only VACUUM, autovacuum's ANALYZE (a manual ANALYZE does
-- not) or 4 MB of entries empty it. So right after an owner's bulk import (issue 16: "until autovacuum
-- runs") the planner priced these indexes at 1,445 cost units for 3,000 projections and read all of the
-- owner's rows by a btree leading with owner_sub instead, filtering with @@: facts 2.5-8.9 ms (6,000 rows
-- removed), projection texts 3.5-10.6 ms (3,000 rows on 1,196 pages: embeddings are in the row since 0059).
-- With the lists emptied the same queries take the GIN indexes, 0.04-0.6 ms; with fastupdate off they stay
-- empty. Cost: each current literal fact and each projection written updates the GIN tree at once (a few
-- words each) instead of appending to the list (bench/README.md has the import rates before and after).
ALTER INDEX facts_owner_value_tsv SET (fastupdate = off);
ALTER INDEX memory_projections_owner_tsv_de SET (fastupdate = off);
ALTER INDEX memory_projections_owner_tsv_en SET (fastupdate = off);
SELECT gin_clean_pending_list('facts_owner_value_tsv'::regclass), gin_clean_pending_list('memory_projections_owner_tsv_de'::regclass),
       gin_clean_pending_list('memory_projections_owner_tsv_en'::regclass);

-- 2. Names and aliases: the (owner_sub, trigram) GiST indexes of 0037 with 256-byte signatures instead of
-- the default 12. With 12 bytes (96 bits) every inner page of 100,000 names has nearly all bits set, so the
-- KNN scan for word distance could prune nothing: 55-86 ms per name search at 100,000 entities. With 256
-- bytes and the word-similarity cut as an index condition (agent_search_entities: `<%` at 0.6, the same cut
-- the list applied after the scan), 0.02-16 ms. Same names, so the plans' index names stay.
DROP INDEX entities_owner_name_gist;
CREATE INDEX entities_owner_name_gist ON entities USING gist (owner_sub, canonical_name gist_trgm_ops(siglen = 256));
DROP INDEX entity_aliases_owner_norm_gist;
CREATE INDEX entity_aliases_owner_norm_gist ON entity_aliases USING gist (owner_sub, alias_norm gist_trgm_ops(siglen = 256))
    WHERE superseded_at IS NULL;

-- Fuzzy name search within one owner by an index that holds both conditions. The trigram GIN indexes of 0003
-- span every owner, and the planner prices them far above "the owner's rows by (owner_sub, ...) btree, trigram
-- as a filter" (860 against 92 cost units for 3,000 of the owner's names), so every name search compared the
-- query with every name of the owner: 23-54 ms at 3,000 names. A GiST index on (owner_sub, name trigrams)
-- (btree_gist from 0001 for the text column) answers `owner_sub = wm_owner() AND (name % q OR q <% name)` in
-- one bitmap scan. Signatures of 256 bytes instead of the default 12: with 96 bits every inner page of 100,000
-- names has nearly all bits set, so the KNN scan for word distance could prune nothing (55-86 ms per name
-- search at 100,000 entities, 0.02-16 ms with 256 bytes and the word-similarity cut as an index condition,
-- agent_search_entities' `<%` at 0.6).
CREATE INDEX entities_owner_name_gist ON entities USING gist (owner_sub, canonical_name gist_trgm_ops(siglen = 256));
CREATE INDEX entity_aliases_owner_norm_gist ON entity_aliases USING gist (owner_sub, alias_norm gist_trgm_ops(siglen = 256))
    WHERE superseded_at IS NULL;

-- Fuzzy name search within one owner by an index that holds both conditions (issue 16, issue 11's
-- search target). The trigram GIN indexes of 0003 span every owner, and the planner prices them far above
-- "the owner's rows by (owner_sub, ...) btree, trigram as a filter" (860 against 92 cost units for 3,000
-- of the owner's names), so every name search compared the query with every name of the owner: 23-54 ms
-- at 3,000 names. A GiST index on (owner_sub, name trigrams) (btree_gist from 0001 for the text column)
-- answers `owner_sub = wm_owner() AND (name % q OR q <% name)` in one bitmap scan: 2-5 ms for most queries
-- at 3,000 names (measured on bench.fresh_owner's data, EXPLAIN ANALYZE as worldmem_app).
CREATE INDEX entities_owner_name_gist ON entities USING gist (owner_sub, canonical_name gist_trgm_ops);
CREATE INDEX entity_aliases_owner_norm_gist ON entity_aliases USING gist (owner_sub, alias_norm gist_trgm_ops)
    WHERE superseded_at IS NULL;

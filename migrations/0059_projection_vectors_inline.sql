-- Projection embeddings stored in the row, not in the TOAST table.
-- The vector type's default storage is EXTERNAL, and a row of text plus a 512-d vector (2 KB) is over the
-- 2 KB toast target, so every embedding lived out of line: an exact distance scan fetched each one through
-- the TOAST index, 10.2 ms for 2,460 projections. Inline (MAIN, and a target of a whole page so a vector up
-- to about 1,900 dimensions stays in the row; bigger ones still move out of line) the same scan takes
-- 1.15 ms, which lets an owner with up to EXACT_BELOW projections be searched exactly (graph/finder/search.py)
-- instead of through the approximate HNSW index. CLUSTER rewrites the existing rows under the new settings,
-- grouped by owner (the exact scan reads one owner's rows).
SET LOCAL ROLE worldmem_owner;

ALTER TABLE memory_projections ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE memory_projections SET (toast_tuple_target = 8160);
CLUSTER memory_projections USING memory_projections_owner_sub_source_kind_source_key_key;

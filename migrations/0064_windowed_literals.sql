-- Windowed relationships: a relationship row is never windowed.
--
-- The job never prunes a relationship row (wm_retention_prunable, 0043: literals only), and it should not:
-- relationship rows are the AGE edges that neighbors, traversal and causality read at any valid and system
-- time, and a rollup text cannot answer a traversal, so pruning them would make as-of traversal behind the
-- edge silently lose edges (a literal read behind the edge gets a notice and the month's summary instead).
-- They are also few (memberships and locations change rarely; the high-frequency series are literal), and
-- no writer marks them windowed (syncEntities writes literal, functional predicates only). A windowed
-- relationship would therefore be a class that promises a pruning that never comes: this constraint makes
-- the class honest.
SET LOCAL ROLE worldmem_owner;

ALTER TABLE facts ADD CONSTRAINT facts_windowed_literal
    CHECK (retention_class <> 'windowed' OR object_kind = 'literal');

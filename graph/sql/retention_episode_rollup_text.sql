-- The text of a chat month's episode rollup written by an earlier run, if any (a late turn merges into it).
-- Returns: text
SELECT p.text FROM memory_projections p WHERE p.source_kind = 'rollup' AND p.source_key = %(source_key)s

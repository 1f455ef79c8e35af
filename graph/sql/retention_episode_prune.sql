-- Prune episodes a rollup now stands for: the turns and their projections (same transaction as the rollup).
-- Returns: n (turns deleted)
WITH gone AS (
    DELETE FROM memory_projections p
    WHERE p.source_kind = 'episode' AND p.source_key = ANY(%(keys)s::text[])
)
DELETE FROM chat_turns t
WHERE t.id = ANY(%(ids)s::uuid[])
RETURNING 1

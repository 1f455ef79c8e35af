-- Rows to embed, oldest change first: pending, or embedded by another model than %(model)s (a model
-- change re-embeds incrementally; the text is never lost). SKIP LOCKED: two reconcilers share the queue.
-- Returns: id, text
SELECT id, text
FROM memory_projections
WHERE owner_sub = wm_owner() AND (embedding_pending OR embedding_model IS DISTINCT FROM %(model)s)
ORDER BY embedding_pending DESC, updated_at
LIMIT %(batch)s
FOR UPDATE SKIP LOCKED

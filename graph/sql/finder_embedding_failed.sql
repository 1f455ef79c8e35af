-- An embedding failure is recorded on the rows and retried on the next run; nothing else changes.
UPDATE memory_projections
SET embedding_error = left(%(error)s, 500), embedding_pending = true
WHERE owner_sub = wm_owner() AND id = ANY(%(ids)s::uuid[])

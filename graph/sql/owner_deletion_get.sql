-- owner_deletion_get: one owner-deletion receipt (the superuser's table). Columns: id, deleted_at, requested_by,
-- counts, receipt_hash
SELECT id, deleted_at, requested_by, counts, receipt_hash FROM owner_deletions WHERE id = %(id)s

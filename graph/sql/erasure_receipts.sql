-- erasure_receipts: the owner's erasure receipts, newest first, or the one named by %(id)s.
-- Columns: id, kind, predicate, token_id, token_kind, reason, erased_at, counts, receipt_hash
SELECT id, kind, predicate, token_id, token_kind, reason, erased_at, counts, receipt_hash
FROM erasures
WHERE owner_sub = wm_owner() AND (%(id)s::uuid IS NULL OR id = %(id)s::uuid)
ORDER BY erased_at DESC
LIMIT %(limit)s

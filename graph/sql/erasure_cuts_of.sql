-- erasure_cuts_of: where the links of the rows %(ids)s were cut by an erasure.
-- Columns: row_id, link, erasure_id, erased_at
SELECT c.row_id, c.link, x.id AS erasure_id, x.erased_at
FROM erasure_cuts c JOIN erasures x ON x.id = c.erasure_id
WHERE c.owner_sub = wm_owner() AND c.row_id = ANY(%(ids)s::uuid[])
ORDER BY x.erased_at

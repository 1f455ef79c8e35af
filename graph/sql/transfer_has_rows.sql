-- transfer_has_rows: whether the owner has any row in one table (the owner written out, as transfer_select
-- says why: another owner's namespace claim must not make this owner look non-empty). Columns: found.
SELECT EXISTS (SELECT 1 FROM {table} WHERE owner_sub = wm_owner()) AS found

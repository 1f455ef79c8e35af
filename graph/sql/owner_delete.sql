-- owner_delete: delete the transaction's owner entirely (wm_delete_owner, graph/sql/functions/wm_delete_owner.sql); %(by)s is 'owner'
-- (an owner token) or 'admin' (the CLI, as the superuser). Columns: id (the receipt)
SELECT wm_delete_owner(wm_owner(), %(by)s) AS id

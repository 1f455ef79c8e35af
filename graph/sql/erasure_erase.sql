-- erasure_erase: one erasure request (wm_erase, graph/sql/functions/wm_erase.sql): the receipt's id. Columns: id
SELECT wm_erase(%(kind)s, %(ref)s, %(predicate)s, %(reason)s, %(token_hash)s, %(token_kind)s) AS id

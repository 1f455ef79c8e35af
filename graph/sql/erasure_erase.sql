-- erasure_erase: one erasure request (wm_erase, migrations/0161): the receipt's id. Columns: id
SELECT wm_erase(%(kind)s, %(ref)s, %(predicate)s, %(reason)s, %(token_hash)s, %(token_kind)s) AS id

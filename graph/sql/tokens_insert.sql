INSERT INTO api_tokens (token_hash, owner_sub, kind, name, can_import, can_integrate)
VALUES (%(token_hash)s, %(owner_sub)s, %(kind)s, %(name)s, %(can_import)s, %(can_integrate)s)
RETURNING id

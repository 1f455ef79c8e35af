INSERT INTO api_tokens (token_hash, owner_sub, can_import, can_integrate)
VALUES (%(token_hash)s, %(owner_sub)s, %(can_import)s, %(can_integrate)s)
RETURNING id

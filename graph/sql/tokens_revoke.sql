-- A token named by its hash or by its id (exactly one of the two is given).
UPDATE api_tokens SET revoked_at = clock_timestamp()
WHERE (token_hash = %(token_hash)s OR id = %(id)s) AND revoked_at IS NULL
RETURNING id

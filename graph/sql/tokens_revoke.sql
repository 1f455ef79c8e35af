UPDATE api_tokens SET revoked_at = clock_timestamp()
WHERE token_hash = %(token_hash)s AND revoked_at IS NULL
RETURNING id

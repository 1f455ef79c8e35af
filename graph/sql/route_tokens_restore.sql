-- route_tokens_restore: the tokens kept by route_tokens_keep, as they were (same ids and hashes)
INSERT INTO api_tokens SELECT * FROM kept_tokens

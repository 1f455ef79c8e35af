-- The owner's LLM call count and token sums since %(since)s.
-- Returns: calls, input_tokens, output_tokens
SELECT count(*) AS calls, coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
       coalesce(sum(output_tokens), 0)::bigint AS output_tokens
FROM curator_usage
WHERE owner_sub = wm_owner() AND recorded_at >= %(since)s

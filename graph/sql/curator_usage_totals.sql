-- The owner's LLM call count and token sums since %(since)s; `turns` and the `counted_*` sums cover only the
-- calls that know how many turns they read (turns > 0), for tokens per turn.
-- Returns: calls, input_tokens, output_tokens, turns, counted_input_tokens, counted_output_tokens
SELECT count(*) AS calls, coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
       coalesce(sum(output_tokens), 0)::bigint AS output_tokens,
       coalesce(sum(turns), 0)::bigint AS turns,
       coalesce(sum(input_tokens) FILTER (WHERE turns > 0), 0)::bigint AS counted_input_tokens,
       coalesce(sum(output_tokens) FILTER (WHERE turns > 0), 0)::bigint AS counted_output_tokens
FROM curator_usage
WHERE owner_sub = wm_owner() AND recorded_at >= %(since)s

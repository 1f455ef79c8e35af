-- The owner's LLM calls since %(since)s, newest first (index curator_usage_owner_time), at most %(limit)s.
-- Returns: id, run_id, model, input_tokens, output_tokens, trigger_source, recorded_at, turns
SELECT id, run_id, model, input_tokens, output_tokens, trigger_source, recorded_at, turns
FROM curator_usage
WHERE owner_sub = wm_owner() AND recorded_at >= %(since)s
ORDER BY recorded_at DESC, id DESC
LIMIT %(limit)s

-- One LLM call's cost. owner_sub must be the transaction's owner (the row policy's WITH CHECK).
-- Returns: id, recorded_at
INSERT INTO curator_usage (owner_sub, run_id, model, input_tokens, output_tokens, trigger_source, turns)
VALUES (%(owner)s, %(run_id)s, %(model)s, %(input_tokens)s, %(output_tokens)s, %(trigger_source)s, %(turns)s)
RETURNING id, recorded_at

-- Reserve %(n)s turn numbers of the chat at once (an import); creates the chat's curator_state on its first
-- turns. The row lock serialises the chat's writers, as curator_turn_next_seq does for one turn.
-- Returns: last_seq (the last reserved number), watermark_seq (unchanged here)
INSERT INTO curator_state AS s (chat_id, last_seq, last_turn_at, updated_at)
VALUES (%(chat_id)s, %(n)s, clock_timestamp(), clock_timestamp())
ON CONFLICT (owner_sub, chat_id) DO UPDATE
SET last_seq = s.last_seq + %(n)s, last_turn_at = excluded.last_turn_at, updated_at = excluded.updated_at
RETURNING last_seq, watermark_seq

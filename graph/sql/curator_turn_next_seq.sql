-- The chat's next turn number; creates the chat's curator_state on its first turn. The row lock taken
-- here serialises concurrent turns of one chat, so seq has no gaps and no duplicates.
-- Returns: seq (the new turn's number)
INSERT INTO curator_state AS s (chat_id, last_seq, last_turn_at, updated_at)
VALUES (%(chat_id)s, 1, clock_timestamp(), clock_timestamp())
ON CONFLICT (owner_sub, chat_id) DO UPDATE
SET last_seq = s.last_seq + 1, last_turn_at = excluded.last_turn_at, updated_at = excluded.updated_at
RETURNING last_seq AS seq

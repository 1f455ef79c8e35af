-- Store one chat turn (its seq from curator_turn_next_seq, same transaction).
-- Returns: every column of chat_turns.
INSERT INTO chat_turns (chat_id, seq, run_id, role, text, thinking, tool_calls, explicit)
VALUES (%(chat_id)s, %(seq)s, %(run_id)s, %(role)s, %(text)s, %(thinking)s, %(tool_calls)s, %(explicit)s)
RETURNING id, owner_sub, chat_id, seq, run_id, role, text, thinking, tool_calls, explicit, created_at

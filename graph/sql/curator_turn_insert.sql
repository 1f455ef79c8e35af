-- Store one chat turn (its seq from curator_turn_next_seq, same transaction); `occurred_at` NULL: now.
-- Returns: every column of chat_turns.
INSERT INTO chat_turns (chat_id, seq, run_id, role, text, thinking, tool_calls, explicit, occurred_at, speaker,
                        external_id)
VALUES (%(chat_id)s, %(seq)s, %(run_id)s, %(role)s, %(text)s, %(thinking)s, %(tool_calls)s, %(explicit)s,
        coalesce(%(occurred_at)s::timestamptz, clock_timestamp()), %(speaker)s, %(external_id)s)
RETURNING id, owner_sub, chat_id, seq, run_id, role, text, thinking, tool_calls, explicit, created_at, occurred_at,
          speaker, external_id

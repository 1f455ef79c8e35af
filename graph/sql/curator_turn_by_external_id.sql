-- The chat's turn stored under %(external_id)s, if any (a replayed recordTurn).
-- Returns: every column of chat_turns.
SELECT t.id, t.owner_sub, t.chat_id, t.seq, t.run_id, t.role, t.text, t.thinking, t.tool_calls, t.explicit,
       t.created_at, t.occurred_at, t.speaker, t.external_id
FROM chat_turns t
WHERE t.chat_id = %(chat_id)s AND t.external_id = %(external_id)s

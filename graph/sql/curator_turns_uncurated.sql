-- The chat's turns after its watermark, oldest first (the unique index (owner_sub, chat_id, seq) serves it).
-- Returns: every column of chat_turns.
SELECT t.id, t.owner_sub, t.chat_id, t.seq, t.run_id, t.role, t.text, t.thinking, t.tool_calls, t.explicit,
       t.created_at, t.occurred_at, t.speaker, t.external_id
FROM chat_turns t
WHERE t.chat_id = %(chat_id)s
  AND t.seq > coalesce((SELECT s.watermark_seq FROM curator_state s WHERE s.chat_id = %(chat_id)s), 0)
ORDER BY t.seq
LIMIT %(limit)s

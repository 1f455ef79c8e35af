-- One chat's curated episodes of one month (UTC) before %(edge)s, in the order they were said.
-- Returns: the episode columns (graph.episodes.model.from_row)
SELECT t.id, t.chat_id, t.seq, t.external_id, t.occurred_at, t.speaker, t.role, t.text
FROM chat_turns t
JOIN curator_state s ON s.chat_id = t.chat_id
WHERE t.chat_id = %(chat_id)s AND t.seq <= s.watermark_seq AND t.occurred_at < %(edge)s
  AND t.occurred_at >= %(month_start)s AND t.occurred_at < %(month_end)s
ORDER BY t.occurred_at, t.seq

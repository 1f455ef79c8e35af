-- The owner's chats and months whose episodes lie wholly before %(edge)s and are curated (at or below the
-- chat's watermark: the curator may still need the others), oldest first.
-- Returns: chat_id, month (first day, UTC), n
SELECT t.chat_id, date_trunc('month', t.occurred_at AT TIME ZONE 'UTC')::date AS month, count(*) AS n
FROM chat_turns t
JOIN curator_state s ON s.chat_id = t.chat_id
WHERE t.occurred_at < %(edge)s AND t.seq <= s.watermark_seq
GROUP BY t.chat_id, date_trunc('month', t.occurred_at AT TIME ZONE 'UTC')
HAVING max(t.occurred_at) < %(edge)s
   AND date_trunc('month', t.occurred_at AT TIME ZONE 'UTC') + interval '1 month' <= %(edge)s AT TIME ZONE 'UTC'
ORDER BY month, t.chat_id

-- One chat's curator state plus its backlog (turns after the watermark; explicit ones counted apart).
-- Returns: last_seq, watermark_seq, last_turn_at, updated_at, backlog, explicit_backlog
SELECT s.last_seq, s.watermark_seq, s.last_turn_at, s.updated_at,
       s.last_seq - s.watermark_seq AS backlog,
       (SELECT count(*) FROM chat_turns t
        WHERE t.chat_id = s.chat_id AND t.seq > s.watermark_seq AND t.explicit) AS explicit_backlog
FROM curator_state s
WHERE s.chat_id = %(chat_id)s

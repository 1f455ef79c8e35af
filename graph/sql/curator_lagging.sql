-- The current owner's chats with un-curated turns whose last turn is older than `older_than`, oldest first
-- (partial index curator_state_lagging).
-- Returns: owner_sub, chat_id
SELECT s.owner_sub, s.chat_id
FROM curator_state s
WHERE s.watermark_seq < s.last_seq AND s.last_turn_at < clock_timestamp() - %(older_than)s
ORDER BY s.last_turn_at
LIMIT %(limit)s

-- The chat's turns already stored under any of %(ids)s (an import's replay check; the unique index of 0130).
-- Returns: external_id, text
SELECT t.external_id, t.text
FROM chat_turns t
WHERE t.chat_id = %(chat_id)s AND t.external_id = ANY(%(ids)s::text[])

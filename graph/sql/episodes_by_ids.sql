-- Episodes by turn id (a search's episode hits, read for the few that fusion keeps).
-- Returns: the episode columns (graph.episodes.model.from_row)
SELECT t.id, t.chat_id, t.seq, t.external_id, t.occurred_at, t.speaker, t.role, t.text
FROM chat_turns t
WHERE t.id = ANY(%(ids)s::uuid[])

-- An import's new turns in one statement, numbered from %(first)s in the order given (ord 0, 1, ...).
-- %(turns)s: a json array of {ord, role, speaker, text, occurred_at, external_id}.
-- Returns: the episode columns (graph.episodes.model.from_row)
INSERT INTO chat_turns (chat_id, seq, role, speaker, text, occurred_at, external_id)
SELECT %(chat_id)s, %(first)s + t.ord, t.role, t.speaker, t.text, t.occurred_at, t.external_id
FROM jsonb_to_recordset(%(turns)s::jsonb)
     AS t(ord int, role text, speaker text, text text, occurred_at timestamptz, external_id text)
ORDER BY t.ord
RETURNING id, chat_id, seq, external_id, occurred_at, speaker, role, text

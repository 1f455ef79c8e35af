-- Episodes by turn id (a search's episode hits, read for the few that fusion keeps).
-- The ids drive a join, each one pkey probe: as `t.id = ANY(ids)` the planner ANDed the owner's btree (every
-- turn of the owner, the row-level security condition) into a bitmap with the pkey's, 4.2 ms at 100,000
-- turns for 40 ids instead of 0.2 ms (bench.recall_scale).
-- Returns: the episode columns (graph.episodes.model.from_row)
SELECT t.id, t.chat_id, t.seq, t.external_id, t.occurred_at, t.speaker, t.role, t.text
FROM unnest(%(ids)s::uuid[]) AS i(id)
JOIN chat_turns t ON t.id = i.id

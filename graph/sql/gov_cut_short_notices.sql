-- Assertions of a chat's proposals that ended early at a change already known (graph.ledger.cut_short): the
-- `cut_short` entries of each proposal's stored result, oldest first. Columns: recorded_at, item (one entry,
-- jsonb). Index: proposals' primary key is (owner_sub, run_id); a chat's proposals are few per `since`.
SELECT p.recorded_at, c.item
FROM proposals p
CROSS JOIN LATERAL jsonb_array_elements(coalesce(p.result -> 'cut_short', '[]'::jsonb)) AS c(item)
WHERE p.owner_sub = wm_owner() AND p.chat_id = %(chat_id)s AND p.recorded_at > %(since)s
  AND jsonb_typeof(p.result -> 'cut_short') = 'array'
ORDER BY p.recorded_at, c.item ->> 'op_index'
LIMIT %(limit)s

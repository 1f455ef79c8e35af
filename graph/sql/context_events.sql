-- Salient recent events (since %(since)s), each with its direct cause: the latest about each linked
-- entity, the latest of this chat (its user messages are in the transcript already), and actions whose
-- stated intent went unfulfilled or only partly so.
WITH picked AS (
    SELECT w.id
    FROM unnest(%(ids)s::uuid[]) AS linked(id)
    CROSS JOIN LATERAL (
        SELECT id FROM world_events
        WHERE owner_sub = wm_owner() AND target_entity_id = linked.id AND occurred_at >= %(since)s
        ORDER BY occurred_at DESC
        LIMIT %(per_entity)s
    ) AS w
    UNION
    (SELECT id FROM world_events
     WHERE owner_sub = wm_owner() AND chat_id = %(chat_id)s AND occurred_at >= %(since)s
       AND event_type <> 'user_message'
     ORDER BY occurred_at DESC
     LIMIT %(per_chat)s)
    UNION
    (SELECT id FROM world_events
     WHERE owner_sub = wm_owner() AND expected_effect IS NOT NULL
       AND intent_outcome IS DISTINCT FROM 'fulfilled' AND intent_outcome IS NOT NULL
       AND occurred_at >= %(since)s
     ORDER BY occurred_at DESC
     LIMIT %(per_open)s)
)
SELECT w.id, w.occurred_at, w.event_type, w.summary, w.chat_id, w.intent, w.intent_outcome,
       t.ref AS target, c.event_type AS cause_type, c.summary AS cause_summary
FROM picked p
JOIN world_events w ON w.id = p.id
LEFT JOIN entities t ON t.id = w.target_entity_id
LEFT JOIN world_events c ON c.id = w.caused_by_event_id
ORDER BY w.occurred_at DESC, w.id
LIMIT %(limit)s

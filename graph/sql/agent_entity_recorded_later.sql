-- When the entity whose ref is %(ref)s was first recorded, if that was after %(system_time)s: as known then
-- it did not exist, and the answer says when it came (graph.agent.recall.named). No row: no such ref, or
-- it was known then. Columns: created_at. Index: entities_owner_ref.
SELECT created_at FROM entities
WHERE owner_sub = wm_owner() AND ref = %(ref)s AND created_at > %(system_time)s::timestamptz

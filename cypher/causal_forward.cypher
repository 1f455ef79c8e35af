// What the events $ids caused directly: one hop forward over CAUSED (cause -> effect).
// columns: cause_id, kind, id, event_type, occurred_at, correlation_id, summary
UNWIND $ids AS eid
MATCH (c:Event) WHERE c.id = eid
MATCH (c)-[k:CAUSED]->(e:Event)
RETURN c.id, k.kind, e.id, e.event_type, e.occurred_at, e.correlation_id, e.summary

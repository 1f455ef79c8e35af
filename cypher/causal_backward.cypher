// What caused the events $ids directly: one hop backward over CAUSED (effect <- cause).
// columns: effect_id, kind, id, event_type, occurred_at, correlation_id, summary
UNWIND $ids AS eid
MATCH (e:Event) WHERE e.id = eid
MATCH (c:Event)-[k:CAUSED]->(e)
RETURN e.id, k.kind, c.id, c.event_type, c.occurred_at, c.correlation_id, c.summary

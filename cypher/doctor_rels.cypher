// Every relationship edge with its endpoints (run as admin: all owners). columns: id, owner, predicate, status, subject, object, valid_from, valid_to, recorded_at, superseded_at
MATCH (a:Entity)-[r:REL]->(b:Entity)
RETURN r.id, r.owner, r.predicate, r.status, a.id, b.id, r.valid_from, r.valid_to, r.recorded_at, r.superseded_at

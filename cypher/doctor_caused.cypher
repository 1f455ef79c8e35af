// Every causation edge (run as admin: all owners). columns: cause, effect, owner
MATCH (c:Event)-[r:CAUSED]->(e:Event) RETURN c.id, e.id, r.owner

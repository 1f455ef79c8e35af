// Every entity vertex (run as admin: all owners). columns: id, owner, ref, kind, status
MATCH (e:Entity) RETURN e.id, e.owner, e.ref, e.kind, e.status

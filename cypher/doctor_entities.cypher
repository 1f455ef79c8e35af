// Every entity vertex (run as admin: all owners), with what traversal reads of it (name, merged_into).
// columns: id, owner, ref, kind, status, name, merged_into
MATCH (e:Entity) RETURN e.id, e.owner, e.ref, e.kind, e.status, e.name, e.merged_into

// Every event vertex (run as admin: all owners). columns: id, owner, event_type
MATCH (e:Event) RETURN e.id, e.owner, e.event_type

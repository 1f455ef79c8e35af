// Mirror a sync's new entities as vertices, one statement for a whole chunk (UNWIND), as
// mirror_create_entity does one by one: 10k single CREATEs were the slowest part of a sync. columns: n
UNWIND $rows AS r
CREATE (e:Entity {id: r.id, owner: $owner, ref: r.ref, kind: r.kind, name: r.name, status: r.status})
RETURN count(e)

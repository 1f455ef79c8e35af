// Mirror a new entity as a vertex. columns: v
CREATE (e:Entity {id: $id, owner: $owner, ref: $ref, kind: $kind, name: $name, status: $status})
RETURN e.id

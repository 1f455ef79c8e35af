CREATE (e:Entity {id: 'bench-probe', owner: $owner}) RETURN e.id

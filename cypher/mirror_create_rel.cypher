// Mirror one relationship fact row as an edge carrying its four time columns. columns: v
MATCH (a:Entity) WHERE a.id = $subject
MATCH (b:Entity) WHERE b.id = $object
CREATE (a)-[r:REL {id: $id, owner: $owner, predicate: $predicate, status: $status, scope: $scope,
                   valid_from: $valid_from, valid_to: $valid_to,
                   recorded_at: $recorded_at, superseded_at: $superseded_at}]->(b)
RETURN r.id

// Mirror event causation as an edge from cause to effect. columns: v
MATCH (c:Event) WHERE c.id = $cause
MATCH (e:Event) WHERE e.id = $effect
CREATE (c)-[r:CAUSED {id: $id, owner: $owner, kind: $kind}]->(e)
RETURN r.id

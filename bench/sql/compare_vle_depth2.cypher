MATCH (a:Entity) WHERE a.id = $id MATCH (a)-[r:REL*1..2]->(b:Entity) RETURN count(*)

MATCH (a:Entity) WHERE a.id = $id MATCH (a)-[r:REL]-(b:Entity) RETURN count(*)

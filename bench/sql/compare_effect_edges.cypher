UNWIND $ids AS eid MATCH (e:Event) WHERE e.id = eid MATCH (e)-[x:EFFECT]->(s:Entity) RETURN count(*)

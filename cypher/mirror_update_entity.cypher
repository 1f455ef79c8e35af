// Keep an entity vertex in step with its row. columns: v
MATCH (e:Entity) WHERE e.id = $id
SET e.name = $name, e.status = $status, e.merged_into = $merged_into
RETURN e.id

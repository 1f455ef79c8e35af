// Close the system time of a relationship edge (its row was superseded or invalidated). columns: v
MATCH ()-[r:REL]->() WHERE r.id = $id
SET r.superseded_at = $superseded_at, r.status = $status
RETURN r.id

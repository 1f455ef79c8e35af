// Mirror a world event as a vertex. columns: v
CREATE (e:Event {id: $id, owner: $owner, event_type: $event_type, occurred_at: $occurred_at,
                 correlation_id: $correlation_id, summary: $summary})
RETURN e.id

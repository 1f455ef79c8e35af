// Mirror a sync's world events as vertices, a chunk at once (UNWIND), as mirror_create_event does one by
// one. columns: n
UNWIND $rows AS r
CREATE (e:Event {id: r.id, owner: $owner, event_type: r.event_type, occurred_at: r.occurred_at,
                 correlation_id: r.correlation_id, summary: r.summary})
RETURN count(e)

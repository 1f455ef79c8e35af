INSERT INTO worldgraph."Event" (id, properties)
SELECT v.gid, (jsonb_build_object(
           'id', w.id, 'owner', w.owner_sub, 'event_type', w.event_type,
           'occurred_at', (extract(epoch FROM w.occurred_at) * 1000000)::bigint,
           'correlation_id', w.correlation_id, 'summary', w.summary)::text)::ag_catalog.agtype
FROM bench.ev v JOIN world_events w ON w.id = v.id
WHERE v.owner = %(owner)s

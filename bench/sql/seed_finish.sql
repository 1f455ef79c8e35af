-- Later CREATEs must not reuse the seeded graphids; the owner's clock starts at the seed time.
SELECT setval('worldgraph."Entity_id_seq"', %(entities)s),
       setval('worldgraph."REL_id_seq"', %(rels)s),
       setval('worldgraph."Event_id_seq"', %(events)s),
       setval('worldgraph."CAUSED_id_seq"', %(caused)s)

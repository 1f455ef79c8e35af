-- Facts with a cause (the seed's status rows), with what explain_change and the intent queries need.
SELECT f.id, f.subject_id, f.predicate, s.ref, f.caused_by_event_id
FROM facts f JOIN entities s ON s.id = f.subject_id
WHERE f.owner_sub = wm_owner() AND f.caused_by_event_id IS NOT NULL
ORDER BY random() LIMIT %(n)s

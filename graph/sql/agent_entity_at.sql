-- getEntity(ref, validTime, systemTime): the beliefs about entity %(id)s both ways, valid at %(valid_time)s
-- and known at %(system_time)s (NULL = now): rows that were beliefs (never pending ones) and believed then
-- (wm_known, the one as-of condition: migrations/0015). Part 0 its own facts, part 1 relationships pointing
-- at it, at most %(limit)s of each. Columns: agent_facts_about.sql's (about_id, subject_ref, the FactView ones).
-- Index: facts_current / the subject and object indexes of facts; wm_known is inlined.
(SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
        f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
        f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
        f.reason, f.evidence, f.supersedes_fact_id, f.run_id
 FROM facts f
 JOIN entities s ON s.id = f.subject_id
 LEFT JOIN entities o ON o.id = f.object_entity_id
 LEFT JOIN entities sc ON sc.id = f.scope_entity_id
 WHERE f.owner_sub = wm_owner() AND f.subject_id = %(id)s AND f.believed
   AND wm_known(f.recorded_at, f.superseded_at, %(system_time)s::timestamptz)
   AND f.valid @> %(valid_time)s::timestamptz
 ORDER BY f.predicate, f.valid_from, f.id
 LIMIT %(limit)s)
UNION ALL
(SELECT f.id, f.object_entity_id, s.ref, f.predicate, f.functional, f.object_kind,
        f.object_value, o.ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
        f.observed_at, f.status, f.source, f.confidence, sc.ref, f.priority, f.memory_type,
        f.reason, f.evidence, f.supersedes_fact_id, f.run_id
 FROM facts f
 JOIN entities s ON s.id = f.subject_id
 JOIN entities o ON o.id = f.object_entity_id
 LEFT JOIN entities sc ON sc.id = f.scope_entity_id
 WHERE f.owner_sub = wm_owner() AND f.object_entity_id = %(id)s AND f.believed
   AND wm_known(f.recorded_at, f.superseded_at, %(system_time)s::timestamptz)
   AND f.valid @> %(valid_time)s::timestamptz
 ORDER BY f.predicate, f.valid_from, f.id
 LIMIT %(limit)s)

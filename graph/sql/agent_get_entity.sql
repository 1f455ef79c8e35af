-- getEntity(%(ref)s) in one statement (issue 11: one statement per read after the owner): the ref resolved as
-- believed now, following merges (wm_resolve, migrations/0074), its aliases valid at %(at)s (agent_aliases.sql's
-- condition, as one array) and its current beliefs both ways: agent_facts_about.sql's two parts for this one
-- entity (its own facts, part 0; relationships pointing at it, part 1; at most %(limit)s of each), active and
-- valid at %(at)s. Pending rows are never read. Keep the parts in step with agent_facts_about.sql.
-- Columns: outcome and via (wm_resolve's), entity_id / _ref / _kind / _name, aliases (text[], NULL for none),
-- then part and the agent_facts_about columns (id NULL on the one row of an entity without facts).
SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
       r.canonical_name AS entity_name, a.aliases, f.*
FROM wm_resolve(%(ref)s, NULL, true) r
LEFT JOIN LATERAL (
    SELECT array_agg(al.alias ORDER BY al.namespace, al.alias) AS aliases
    FROM entity_aliases al
    WHERE al.owner_sub = wm_owner() AND al.entity_id = r.id AND al.superseded_at IS NULL
      AND al.valid_from <= %(at)s AND (al.valid_to IS NULL OR al.valid_to > %(at)s)
) a ON true
LEFT JOIN LATERAL (
    (SELECT 0 AS part, f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional,
            f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at,
            f.superseded_at, f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority,
            f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
     FROM facts f
     JOIN entities s ON s.id = f.subject_id
     LEFT JOIN entities o ON o.id = f.object_entity_id
     LEFT JOIN entities sc ON sc.id = f.scope_entity_id
     WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id
       AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid @> %(at)s::timestamptz
     ORDER BY f.predicate, f.valid_from, f.id
     LIMIT %(limit)s)
    UNION ALL
    (SELECT 1, f.id, f.object_entity_id, s.ref, f.predicate, f.functional, f.object_kind,
            f.object_value, o.ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
            f.observed_at, f.status, f.source, f.confidence, sc.ref, f.priority, f.memory_type,
            f.reason, f.evidence, f.supersedes_fact_id, f.run_id
     FROM facts f
     JOIN entities s ON s.id = f.subject_id
     JOIN entities o ON o.id = f.object_entity_id
     LEFT JOIN entities sc ON sc.id = f.scope_entity_id
     WHERE f.owner_sub = wm_owner() AND f.object_entity_id = r.id
       AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid @> %(at)s::timestamptz
     ORDER BY f.predicate, f.valid_from, f.id
     LIMIT %(limit)s)
) f ON true
ORDER BY f.part, f.predicate, f.valid_from, f.id

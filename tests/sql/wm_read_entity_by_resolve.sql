-- wm_read_entity as it was before its exact-ref shortcut: the resolve path alone, the oracle of
-- tests/test_pinned_by_ref.py (not a product statement).
CREATE FUNCTION wm_read_entity(reader text, wanted text, at timestamptz, most integer)
    RETURNS TABLE (outcome text, via text, entity_id uuid, entity_ref text, entity_kind text, entity_name text, aliases text[], part integer,
                   id uuid, about_id uuid, subject_ref text, predicate text, functional boolean, object_kind text,
                   object_value jsonb, object_ref text, valid_from timestamptz, valid_to timestamptz,
                   recorded_at timestamptz, superseded_at timestamptz, observed_at timestamptz, status text,
                   source text, confidence real, scope_ref text, priority smallint, memory_type text, reason text,
                   evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql AS $fn$
    SELECT public.wm_pin_reader(reader);
    SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
           r.canonical_name AS entity_name, a.aliases, f.*
    FROM wm_resolve(wanted, NULL, true) r
    LEFT JOIN LATERAL (
        SELECT array_agg(al.alias ORDER BY al.namespace, al.alias) AS aliases
        FROM entity_aliases al
        WHERE al.owner_sub = wm_owner() AND al.entity_id = r.id AND al.superseded_at IS NULL
          AND al.valid_from <= at AND (al.valid_to IS NULL OR al.valid_to > at)
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
           AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid @> at::timestamptz
         ORDER BY f.predicate, f.valid_from, f.id
         LIMIT most)
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
           AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid @> at::timestamptz
         ORDER BY f.predicate, f.valid_from, f.id
         LIMIT most)
    ) f ON true
    ORDER BY f.part, f.predicate, f.valid_from, f.id;
$fn$;

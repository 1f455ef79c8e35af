SET LOCAL ROLE worldmem_owner;

-- getEntity's current beliefs about `subject` both ways, at most `most` of each part (an inlined SQL function: both of the read's paths share its text).
CREATE OR REPLACE FUNCTION wm_entity_facts(subject uuid, at timestamptz, most integer)
    RETURNS TABLE (part integer, id uuid, about_id uuid, subject_ref text, predicate text, functional boolean,
                   object_kind text, object_value jsonb, object_ref text, valid_from timestamptz, valid_to timestamptz,
                   recorded_at timestamptz, superseded_at timestamptz, observed_at timestamptz, status text,
                   source text, confidence real, scope_ref text, priority smallint, memory_type text, reason text,
                   evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql STABLE AS $fn$
    (SELECT 0 AS part, f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional,
            f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at,
            f.superseded_at, f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority,
            f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
     FROM public.facts f
     JOIN public.entities s ON s.id = f.subject_id
     LEFT JOIN public.entities o ON o.id = f.object_entity_id
     LEFT JOIN public.entities sc ON sc.id = f.scope_entity_id
     WHERE f.owner_sub = public.wm_owner() AND f.subject_id = wm_entity_facts.subject
       AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.valid @> wm_entity_facts.at
     ORDER BY f.predicate, f.valid_from, f.id
     LIMIT wm_entity_facts.most)
    UNION ALL
    (SELECT 1, f.id, f.object_entity_id, s.ref, f.predicate, f.functional, f.object_kind,
            f.object_value, o.ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
            f.observed_at, f.status, f.source, f.confidence, sc.ref, f.priority, f.memory_type,
            f.reason, f.evidence, f.supersedes_fact_id, f.run_id
     FROM public.facts f
     JOIN public.entities s ON s.id = f.subject_id
     JOIN public.entities o ON o.id = f.object_entity_id
     LEFT JOIN public.entities sc ON sc.id = f.scope_entity_id
     WHERE f.owner_sub = public.wm_owner() AND f.object_entity_id = wm_entity_facts.subject
       AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.valid @> wm_entity_facts.at
     ORDER BY f.predicate, f.valid_from, f.id
     LIMIT wm_entity_facts.most)
$fn$;
GRANT EXECUTE ON FUNCTION wm_entity_facts(uuid, timestamptz, integer) TO worldmem_app;

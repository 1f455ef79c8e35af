SET LOCAL ROLE worldmem_owner;

-- stateAt's facts of `subject`: believed now, active, valid at `valid_time` (an inlined SQL function: both of the read's paths share its text).
CREATE OR REPLACE FUNCTION wm_state_facts(subject uuid, valid_time timestamptz)
    RETURNS TABLE (id uuid, predicate text, functional boolean, object_kind text, object_value jsonb, object_ref text,
                   valid_from timestamptz, valid_to timestamptz, recorded_at timestamptz, superseded_at timestamptz,
                   observed_at timestamptz, status text, source text, confidence real, scope_ref text, priority smallint,
                   memory_type text, reason text, evidence jsonb, supersedes_fact_id uuid, run_id text)
    LANGUAGE sql STABLE AS $fn$
    SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
           f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
           s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM public.facts f
    LEFT JOIN public.entities o ON o.id = f.object_entity_id
    LEFT JOIN public.entities s ON s.id = f.scope_entity_id
    WHERE f.owner_sub = public.wm_owner() AND f.subject_id = wm_state_facts.subject
      AND wm_believed(f.superseded_at) AND f.status = 'active'
      AND f.valid @> wm_state_facts.valid_time
$fn$;
GRANT EXECUTE ON FUNCTION wm_state_facts(uuid, timestamptz) TO worldmem_app;

SET LOCAL ROLE worldmem_owner;

-- wm_erase: one erasure request, all of it in the caller's transaction (graph/erasure/erase.py, docs/erasure.md).
--
-- p_kind 'entity': the entity of p_ref, every entity merged into it, and everything that names them: their
-- fact rows (subject, object or scope; superseded ones too), aliases, events whose actor or target they are
-- or whose summary or payload mentions an erased term, observations, chat turns mentioning a term (deleted
-- whole), projections, rollups, merges, suggestions, suppressions, sync entries, the curator's dropped
-- operations and vocabulary examples and stored proposal results mentioning a term, and the graph mirror's
-- vertices and edges. p_kind 'facts': every row of (p_ref, p_predicate) and what mentions their values.
-- Terms: the entities' names, refs and aliases (3+ characters), their text values of 8+ characters (for
-- eraseFacts: the erased values of 4+ characters); matched case-insensitively as whole words.
-- For an entity, a fact row of another entity whose value, evidence or reason mentions a term is erased
-- too, and another entity's description mentioning one is cleared.
-- Returns the receipt's id. Refusals: WE001 unknown ref, WE002 already erased, WE004 nothing to erase.
CREATE OR REPLACE FUNCTION wm_erase(p_kind text, p_ref text, p_predicate text, p_reason text,
                                    p_token_hash text, p_token_kind text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $fn$
DECLARE
    me text := wm_owner();
    receipt uuid := uuidv7();
    root uuid;
    ids uuid[];
    fids uuid[];
    eids uuid[];
    terms text[];
    pat text;
    npat text;
    vals text[];
    keys text[];
    hashes text[];
    vids graphid[];
    c jsonb := '{}'::jsonb;
    n bigint;
    at timestamptz := clock_timestamp();
    tok uuid;
    n_json_edges jsonb;
    term text;
    scrubbed text := left(coalesce(p_reason, ''), 500);
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'erasure needs an owner' USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- after every commit in flight, before the next: the committer holds this row until its COMMIT
    INSERT INTO owner_clock (owner_sub) VALUES (me) ON CONFLICT DO NOTHING;
    PERFORM 1 FROM owner_clock WHERE owner_sub = me FOR UPDATE;

    SELECT e.id INTO root FROM entities e WHERE e.ref = p_ref FOR UPDATE;
    IF root IS NULL THEN
        IF EXISTS (SELECT 1 FROM erasures x WHERE x.kind = 'entity'
                   AND x.target_hashes @> ARRAY[wm_erasure_hash(p_ref)]) THEN
            RAISE EXCEPTION 'already erased' USING ERRCODE = 'WE002';
        END IF;
        RAISE EXCEPTION 'unknown ref' USING ERRCODE = 'WE001';
    END IF;

    IF p_kind = 'entity' THEN
        WITH RECURSIVE m(id) AS (
            SELECT root UNION SELECT e.id FROM entities e JOIN m ON e.merged_into_id = m.id)
        SELECT array_agg(id) INTO ids FROM m;
        PERFORM 1 FROM entities e WHERE e.id = ANY(ids) FOR UPDATE;
        SELECT array_agg(f.id) INTO fids FROM facts f
        WHERE f.subject_id = ANY(ids) OR f.object_entity_id = ANY(ids) OR f.scope_entity_id = ANY(ids);
        SELECT array_agg(DISTINCT t) INTO terms FROM (
            SELECT e.canonical_name AS t FROM entities e WHERE e.id = ANY(ids)
            UNION SELECT e.ref FROM entities e WHERE e.id = ANY(ids)
            UNION SELECT a.alias FROM entity_aliases a WHERE a.entity_id = ANY(ids)
        ) s WHERE length(t) >= 3;
        npat := wm_erasure_pattern(terms);
        SELECT array_agg(DISTINCT wm_erasure_hash(e.ref)) INTO hashes FROM entities e WHERE e.id = ANY(ids);
        -- a row of another entity that names it in its value, evidence or reason goes too
        SELECT array_agg(f.id) INTO fids FROM facts f
        WHERE f.id IN (SELECT unnest(fids)) OR f.value_text ~* npat OR f.evidence::text ~* npat OR f.reason ~* npat;
        -- values long enough to be specific (a phone number, an address; not "19:00") are matched too
        SELECT array_agg(DISTINCT f.value_text) INTO vals FROM facts f
        WHERE f.id = ANY(fids) AND f.object_entity_id IS NULL AND length(f.value_text) >= 8 AND f.subject_id = ANY(ids);    ELSE
        IF EXISTS (SELECT 1 FROM erasures x WHERE x.kind = 'facts' AND x.predicate = p_predicate
                   AND x.target_hashes @> ARRAY[wm_erasure_hash(p_ref)])
           AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.subject_id = root AND f.predicate = p_predicate) THEN
            RAISE EXCEPTION 'already erased' USING ERRCODE = 'WE002';
        END IF;
        ids := ARRAY[]::uuid[];
        SELECT array_agg(f.id) INTO fids FROM facts f WHERE f.subject_id = root AND f.predicate = p_predicate;
        IF fids IS NULL THEN
            RAISE EXCEPTION 'nothing to erase' USING ERRCODE = 'WE004';
        END IF;
        SELECT array_agg(DISTINCT f.value_text) INTO vals FROM facts f
        WHERE f.id = ANY(fids) AND f.object_entity_id IS NULL AND length(f.value_text) >= 4;
        hashes := ARRAY[wm_erasure_hash(p_ref)];
    END IF;
    fids := coalesce(fids, ARRAY[]::uuid[]);
    terms := coalesce(terms, ARRAY[]::text[]);
    pat := wm_erasure_pattern(terms);
    vals := ARRAY(SELECT DISTINCT x FROM unnest(coalesce(vals, ARRAY[]::text[])) v,
                  LATERAL (VALUES (lower(v)), (lower(substr(to_jsonb(v)::text, 2, length(to_jsonb(v)::text) - 2)))) y(x));
    keys := wm_erasure_keys(vals);

    SELECT array_agg(w.id) INTO eids FROM world_events w
    WHERE w.actor_entity_id = ANY(ids) OR w.target_entity_id = ANY(ids)
       OR wm_erasure_hit(w.summary, pat, vals, keys) OR wm_erasure_hit(w.payload::text, pat, vals, keys)
       OR wm_erasure_hit(w.expected_effect::text, pat, vals, keys) OR wm_erasure_hit(w.intent, pat, vals, keys);
    eids := coalesce(eids, ARRAY[]::uuid[]);

    -- the reason in the receipt may name what is erased: not after this
    FOREACH term IN ARRAY terms LOOP
        scrubbed := regexp_replace(scrubbed, regexp_replace(term, '([.^$|()\[\]{}*+?\\])', '\\\1', 'g'),
                                   '[erased]', 'gi');
    END LOOP;
    FOREACH term IN ARRAY vals LOOP
        IF strpos(lower(scrubbed), term) > 0 THEN
            scrubbed := regexp_replace(scrubbed, regexp_replace(term, '([.^$|()\[\]{}*+?\\])', '\\\1', 'g'),
                                       '[erased]', 'gi');
        END IF;
    END LOOP;
    -- the receipt first (the cuts name it); its counts and hash are filled in at the end
    SELECT t.id INTO tok FROM api_tokens t WHERE t.token_hash = p_token_hash;
    INSERT INTO erasures (id, owner_sub, kind, target_hashes, predicate, token_id, token_kind, reason, erased_at,
                          counts, receipt_hash)
    VALUES (receipt, me, p_kind, hashes, p_predicate, tok, p_token_kind, scrubbed, at,
            '{}'::jsonb, '');
    -- cuts: surviving rows whose link pointed into what goes
    INSERT INTO erasure_cuts (owner_sub, row_id, row_kind, link, erasure_id)
    SELECT me, f.id, 'fact', l.link, receipt FROM facts f
    CROSS JOIN LATERAL (VALUES ('cause', f.caused_by_event_id), ('supersedes', f.supersedes_fact_id),
                               ('superseded_by', f.superseded_by_fact_id),
                               ('invalidated_by', f.invalidated_by_fact_id)) l(link, target)
    WHERE l.target IN (SELECT unnest(fids) UNION ALL SELECT unnest(eids)) AND f.id NOT IN (SELECT unnest(fids))
    UNION ALL
    SELECT me, w.id, 'event', 'cause', receipt FROM world_events w
    WHERE w.caused_by_event_id IN (SELECT unnest(eids)) AND w.id NOT IN (SELECT unnest(eids));
    UPDATE facts SET caused_by_event_id = NULL
    WHERE caused_by_event_id IN (SELECT unnest(eids)) AND id NOT IN (SELECT unnest(fids));
    UPDATE world_events SET caused_by_event_id = NULL
    WHERE caused_by_event_id IN (SELECT unnest(eids)) AND id NOT IN (SELECT unnest(eids));

    -- the graph mirror: edges touching an erased vertex or mirroring an erased row, then the vertices
    SELECT array_agg(v.id) INTO vids FROM worldgraph._ag_label_vertex v
    WHERE (v.properties::text::jsonb ->> 'id') IN (SELECT unnest(ids)::text UNION ALL SELECT unnest(eids)::text);
    vids := coalesce(vids, ARRAY[]::graphid[]);
    WITH gone AS (
        DELETE FROM worldgraph._ag_label_edge g
        WHERE g.start_id = ANY(vids) OR g.end_id = ANY(vids)
           OR (g.properties::text::jsonb ->> 'id') IN (SELECT unnest(fids)::text)
        RETURNING g.tableoid)
    SELECT coalesce(jsonb_object_agg('graph:' || relname, k), '{}'::jsonb) INTO n_json_edges FROM (
        SELECT c2.relname, count(*) AS k FROM gone JOIN pg_class c2 ON c2.oid = gone.tableoid GROUP BY 1) s;
    c := c || n_json_edges;
    WITH gone AS (DELETE FROM worldgraph._ag_label_vertex v WHERE v.id = ANY(vids) RETURNING v.tableoid)
    SELECT coalesce(jsonb_object_agg('graph:' || relname, k), '{}'::jsonb) INTO n_json_edges FROM (
        SELECT c2.relname, count(*) AS k FROM gone JOIN pg_class c2 ON c2.oid = gone.tableoid GROUP BY 1) s;
    c := c || n_json_edges;

    DELETE FROM suppression_markers s
    WHERE s.subject_id = ANY(ids) OR s.scope_entity_id = ANY(ids) OR s.fact_id IN (SELECT unnest(fids));
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('suppression_markers', n);
    DELETE FROM entity_merge_moves m
    WHERE m.old_id = ANY(ids) OR m.new_id = ANY(ids) OR m.old_id IN (SELECT unnest(fids)) OR m.new_id IN (SELECT unnest(fids))
       OR m.merge_id IN (SELECT g.id FROM entity_merges g WHERE g.merged_id = ANY(ids) OR g.into_id = ANY(ids)
                         OR g.event_id = ANY(eids) OR g.split_event_id = ANY(eids));
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('entity_merge_moves', n);
    DELETE FROM entity_merges g WHERE g.merged_id = ANY(ids) OR g.into_id = ANY(ids) OR g.event_id = ANY(eids)
                                   OR g.split_event_id = ANY(eids);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('entity_merges', n);
    DELETE FROM merge_dismissals d WHERE d.low_id = ANY(ids) OR d.high_id = ANY(ids) OR d.event_id = ANY(eids);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('merge_dismissals', n);
    DELETE FROM contact_merge_suggestions s WHERE s.low_id = ANY(ids) OR s.high_id = ANY(ids)
                                              OR wm_erasure_hit(s.detail, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('contact_merge_suggestions', n);
    DELETE FROM sync_entries s WHERE s.entity_id = ANY(ids) OR wm_erasure_hit(s.content::text, pat, vals, keys)
                                  OR wm_erasure_hit(s.external_id, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('sync_entries', n);
    DELETE FROM memory_projections p
    WHERE p.entity_ids && ids OR p.source_key IN (SELECT unnest(fids)::text UNION ALL SELECT unnest(eids)::text)
       OR p.id IN (SELECT r.projection_id FROM retention_rollups r WHERE r.subject_id = ANY(ids)
                   OR (r.subject_id = root AND r.predicate = p_predicate))
       OR wm_erasure_hit(p.text, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('memory_projections', n);
    DELETE FROM retention_rollups r WHERE r.subject_id = ANY(ids) OR (r.subject_id = root AND r.predicate = p_predicate)
                                       OR wm_erasure_hit(r.stats::text, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('retention_rollups', n);
    DELETE FROM chat_turns t WHERE wm_erasure_hit(t.text, pat, vals, keys) OR wm_erasure_hit(t.thinking, pat, vals, keys)
                                OR wm_erasure_hit(t.tool_calls::text, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('chat_turns', n);
    DELETE FROM curator_dropped_ops d WHERE wm_erasure_hit(d.op::text, pat, vals, keys)
                                         OR wm_erasure_hit(d.reason, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('curator_dropped_ops', n);
    DELETE FROM vocabulary_proposals v WHERE wm_erasure_hit(v.example::text, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('vocabulary_proposals', n);
    DELETE FROM proposals p WHERE wm_erasure_hit(p.result::text, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('proposals', n);
    UPDATE curator_runs r SET error = '[erased]' WHERE wm_erasure_hit(r.error, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('curator_runs_errors_blanked', n);
    DELETE FROM observed_events o WHERE o.target_entity_id = ANY(ids) OR wm_erasure_hit(o.summary, pat, vals, keys)
                                     OR wm_erasure_hit(o.payload::text, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('observed_events', n);
    DELETE FROM facts f WHERE f.id = ANY(fids);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('facts', n);
    DELETE FROM world_events w WHERE w.id = ANY(eids);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('world_events', n);
    DELETE FROM entity_aliases a WHERE a.entity_id = ANY(ids);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('entity_aliases', n);
    -- names and descriptions known before (getEntity at a system time): the erased entities' own, and any
    -- other entity's former name or description that mentions a term
    DELETE FROM entity_descriptions d WHERE d.entity_id = ANY(ids)
        OR wm_erasure_hit(d.canonical_name, pat, vals, keys) OR wm_erasure_hit(d.description, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('entity_descriptions', n);
    DELETE FROM entities e WHERE e.id = ANY(ids);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('entities', n);
    UPDATE entities e SET description = NULL WHERE wm_erasure_hit(e.description, pat, vals, keys);
    GET DIAGNOSTICS n = ROW_COUNT; c := c || jsonb_build_object('entity_descriptions_cleared', n);

    UPDATE erasures SET counts = c,
        receipt_hash = encode(sha256(convert_to(jsonb_build_object(
            'id', receipt, 'owner', me, 'kind', p_kind, 'targets', hashes, 'predicate', p_predicate,
            'token', tok, 'at', at, 'counts', c)::text, 'UTF8')), 'hex')
    WHERE id = receipt;
    -- the explorer's live view reloads what it shows of these entities (ids only, as every announcement)
    PERFORM pg_notify('worldmem_commit', json_build_object(
        'owner', me, 'committed', 0, 'pending', 0, 'entityIds', to_json(CASE WHEN p_kind = 'entity' THEN ids
                                                                             ELSE ARRAY[root] END))::text);
    RETURN receipt;
END
$fn$;
REVOKE ALL ON FUNCTION wm_erase(text, text, text, text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wm_erase(text, text, text, text, text, text) TO worldmem_app;

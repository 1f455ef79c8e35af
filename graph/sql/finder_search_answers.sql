-- Current facts as answers to a question (graph.finder.answers ranks them): the facts about the entities the
-- question names (a name or believed alias equal to one of %(forms)s, as the name list matches them; their
-- own facts and the relationships pointing at them) and the facts whose value holds any of the question's
-- content words (%(words)s: an OR tsquery text of plain words, 'simple' configuration; '' for none, and then no
-- fact at all, since graph.finder.answers keeps a named fact only for an asked predicate or value word).
-- Question words never veto: only the ranking weighs the words. Valid time: with %(during)s the facts valid at some
-- point of [%(from)s, %(to)s); else those valid at %(valid_at)s (for the value words without a time asked,
-- %(timed)s false: the open ones, through the GIN index of open current beliefs, 0069).
-- Returns: the agent fact columns (FactView + subject_ref, functional), subject_name, object_name, named (the
-- question names its subject or object), named_object (its object)
WITH named AS MATERIALIZED (  -- none without a content word: no predicate or value can then be asked for
    SELECT e.id FROM entities e
    WHERE %(words)s::text <> '' AND e.owner_sub = wm_owner() AND e.name_norm = ANY(%(forms)s::text[])
    UNION
    SELECT a.entity_id FROM entity_aliases a
    WHERE %(words)s::text <> '' AND a.owner_sub = wm_owner() AND a.alias_norm = ANY(%(forms)s::text[])
      AND wm_believed(a.superseded_at)
      AND a.valid_from <= %(at)s AND (a.valid_to IS NULL OR a.valid_to > %(at)s)
),
about AS (
    (SELECT f.id, true AS named, false AS named_object FROM facts f
     WHERE f.owner_sub = wm_owner() AND f.subject_id IN (SELECT id FROM named)
       AND wm_believed(f.superseded_at) AND f.status = 'active' AND CASE WHEN %(during)s THEN f.valid && tstzrange(%(from)s::timestamptz, %(to)s::timestamptz)
                ELSE f.valid @> %(valid_at)s::timestamptz END
     LIMIT %(pool)s)
    UNION ALL
    (SELECT f.id, true, true FROM facts f
     WHERE f.owner_sub = wm_owner() AND f.object_entity_id IN (SELECT id FROM named)
       AND wm_believed(f.superseded_at) AND f.status = 'active' AND CASE WHEN %(during)s THEN f.valid && tstzrange(%(from)s::timestamptz, %(to)s::timestamptz)
                ELSE f.valid @> %(valid_at)s::timestamptz END
     LIMIT %(pool)s)
    UNION ALL
    (SELECT f.id, false, false FROM facts f
     WHERE %(words)s::text <> '' AND f.owner_sub = wm_owner() AND wm_believed(f.superseded_at) AND f.status = 'active'
       AND CASE WHEN %(during)s THEN f.valid && tstzrange(%(from)s::timestamptz, %(to)s::timestamptz)
                WHEN %(timed)s THEN f.valid @> %(valid_at)s::timestamptz
                ELSE f.valid_to IS NULL END
       AND f.value_tsv @@ to_tsquery('simple', %(words)s::text)
     ORDER BY ts_rank(f.value_tsv, to_tsquery('simple', %(words)s::text)) DESC, f.id
     LIMIT %(k)s)
),
picked AS (SELECT id, bool_or(named) AS named, bool_or(named_object) AS named_object FROM about GROUP BY id)
SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
       f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
       f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
       f.reason, f.evidence, f.supersedes_fact_id, f.run_id, s.canonical_name AS subject_name,
       o.canonical_name AS object_name, p.named, p.named_object
FROM picked p
JOIN facts f ON f.id = p.id
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE %(kind)s::text IS NULL OR s.kind = %(kind)s::text

-- Episodes (chat turns) holding ANY of the question's content words (%(words)s: an OR tsquery text of plain
-- words, question words and filler already dropped), in their German or English stemming, the %(k)s best by
-- ts_rank (more of the words rank higher): the text list needs every word, so "Wann hat meine Mutter
-- Geburtstag?" would never reach the turn that says it.
-- Ranking reads every row it ranks (a turn's row holds its vector: 3 rows a page), so it ranks candidates,
-- not every match: at most %(cap)s turns of each candidate set in %(terms)s (graph.finder.answers.tsquery_terms:
-- each word alone, and all of them together), in the order the index finds them. A rare word's few turns are
-- all candidates however many turns hold a common one (12,209 of 110,000 for a name in bench.recall_scale:
-- 30-45 ms ranked all, 6-15 ms capped); among more than %(cap)s turns holding the same words the ones
-- ranked are the first the bitmap scan reaches (the table's order), not the best of them.
-- The owner's turns through the index of owner-and-class lexemes (wm_owned_words, 0186), each set's query
-- tagged for this owner's turns (wm_owned_query): a word's scan reads this owner's turns holding it, nothing
-- else; written twice, for the reason finder_search_text gives (else the owner btree's rows join the
-- bitmap). `source_kind || ''` on purpose: a condition the unique (owner, kind, key) btree can serve made
-- the planner walk every episode there (50-70 ms at 10,000 episodes instead of the GIN's few ms). With a
-- time range only episodes said during it.
-- An owner without episodes skips the word scans: the EXISTS is one probe of the unique (owner, kind, key)
-- btree, planned as a one-time filter over the whole scan (an owner of entities only paid for two GIN scans
-- of their texts for nothing).
-- With %(near)s (a query embedding of model %(model)s; NULL for none) the same candidates are ranked by their
-- cosine similarity to it instead (graph.finder.vector_list.near: the episode list's turns by meaning, where
-- a question shares only a name with its answer: "Which city is Mara living in?" against "my cousin Mara
-- moved to Lisbon"); a turn not embedded by that model ranks last (-1).
-- Returns: id, source_kind, source_key, text, entity_ids, valid_from, valid_to, score, entities
WITH words AS MATERIALIZED (
    SELECT to_tsquery('german', %(words)s) AS de, to_tsquery('english', %(words)s) AS en
),
terms AS MATERIALIZED (
    SELECT q.de, q.en, wm_owned_query(q.de || q.en, true, false) AS owned
    FROM unnest(%(terms)s::text[]) t, LATERAL (SELECT to_tsquery('german', t) AS de, to_tsquery('english', t) AS en) q
),
found AS MATERIALIZED (
    SELECT c.* FROM terms t CROSS JOIN LATERAL (
        SELECT p.id, p.source_kind, p.source_key, p.text, p.entity_ids, p.valid_from, p.valid_to,
               CASE WHEN %(near)s::vector IS NULL
                    THEN greatest(ts_rank(p.tsv_german, (SELECT de FROM words)),
                                  ts_rank(p.tsv_english, (SELECT en FROM words)))::float8
                    WHEN p.embedding_model = %(model)s AND vector_dims(p.embedding) = vector_dims(%(near)s::vector)
                    THEN (1 - (p.embedding <=> %(near)s::vector))::float8
                    ELSE -1::float8 END AS score
        FROM memory_projections p
        WHERE p.owner_sub = wm_owner() AND (p.source_kind || '') = 'episode'
          AND wm_owned_words(p.owner_sub, p.source_kind, p.tsv_german, p.tsv_english) @@ t.owned
          AND wm_owned_words(p.owner_sub, p.source_kind, p.tsv_german, p.tsv_english) @@ t.owned
          AND (p.tsv_german @@ t.de OR p.tsv_english @@ t.en)
          AND (%(from)s::timestamptz IS NULL OR p.valid_to IS NULL OR p.valid_to > %(from)s::timestamptz)
          AND (%(to)s::timestamptz IS NULL OR p.valid_from IS NULL OR p.valid_from < %(to)s::timestamptz)
        LIMIT %(cap)s) c
    WHERE EXISTS (SELECT FROM memory_projections e WHERE e.owner_sub = wm_owner() AND e.source_kind = 'episode')
),
top AS MATERIALIZED (  -- a turn in several candidate sets once
    SELECT DISTINCT ON (found.score, found.id) * FROM found ORDER BY found.score DESC, found.id LIMIT %(k)s
)
SELECT top.*, '[]'::json AS entities
FROM top
ORDER BY top.score DESC, top.id

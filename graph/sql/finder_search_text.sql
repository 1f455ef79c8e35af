-- Projections whose text holds every word of the query in its German or its English stemming, the %(k)s
-- best by ts_rank; stop words of each language are dropped. The stemmed texts are stored columns
-- (migration 0041): `tsv @@ q` is LEAKPROOF, so under row-level security it is an index condition (an
-- expression `to_tsvector(text) @@ q` is not, and re-parsed all of the owner's texts: 5.1 s at 74,000).
-- The words are matched in the index of owner-and-class lexemes (wm_owned_words, 0186) with the query tagged
-- the same way (wm_owned_query): a word's scan reads this owner's rows of that word only, of every class or,
-- with %(episodes)s false, of every class but the turns (the context builder's entity fallback: a turn is no
-- entity). The match is written twice on purpose: the planner cannot know how many rows a tsquery parameter
-- matches and takes 1 in 200 per condition, and at 1 in 200 it ANDs the owner btree into the bitmap (all of
-- a big owner's rows: 10-11 ms at 110,000 projections, where the GIN scan took 0.8-2.4 ms); at 1 in 40,000
-- it does not. GIN reads the word's posting list once for both (equal keys share an entry) and checks each
-- row twice (about 1 ms more per 4,400 rows). Tagged in `words`, once, as an InitPlan (custom and generic
-- plans; tests/test_search_plans.py). The stored columns themselves are matched again on the rows the index
-- finds, as a condition of its own, so a tag is never a word of the text. Ranked on the stored columns. The
-- query's two stemmings are parsed once (`words`): the lists run generic plans (finder_set_plans, 0082),
-- where plainto_tsquery of a parameter is not folded into a constant and ran for every row found. With a
-- time range only rows valid during it (rows without a range always count).
-- entities: the entities the row points at, as the ledger has them now (a merged one as its survivor,
-- wm_projection_entities, 0073; of kind %(kind)s when given), so no second round trip reads them: json, in
-- entity_ids' order. The ids go to the function as a column, not a subquery, so the planner inlines it (0086).
-- Ranking reads every row it ranks, so it ranks at most %(cap)s of the rows holding every word, the first the
-- bitmap scan reaches (the table's order), not every one: in bench.recall_scale a name alone matched 12,209
-- template turns (about 30 ms to rank them all). Each of those rows holds every word of the query; the episode
-- list (finder_search_episodes) brings the rows of each word alone.
-- Returns: id, source_kind, source_key, text, entity_ids, valid_from, valid_to, score, entities
WITH words AS MATERIALIZED (  -- parsed once: in a generic plan plainto_tsquery of a parameter ran for every row
    SELECT q.de, q.en, wm_owned_query(q.de || q.en, %(episodes)s, true) AS owned
    FROM (SELECT plainto_tsquery('german', %(query)s) AS de, plainto_tsquery('english', %(query)s) AS en) q
),
top AS MATERIALIZED (
    SELECT c.id, c.source_kind, c.source_key, c.text, c.entity_ids, c.valid_from, c.valid_to,
           greatest(ts_rank(c.tsv_german, (SELECT de FROM words)),
                    ts_rank(c.tsv_english, (SELECT en FROM words)))::float8 AS score
    FROM (SELECT p.* FROM memory_projections p
          WHERE p.owner_sub = wm_owner()
            AND wm_owned_words(p.owner_sub, p.source_kind, p.tsv_german, p.tsv_english) @@ (SELECT owned FROM words)
            AND wm_owned_words(p.owner_sub, p.source_kind, p.tsv_german, p.tsv_english) @@ (SELECT owned FROM words)
            AND (p.tsv_german @@ (SELECT de FROM words) OR p.tsv_english @@ (SELECT en FROM words))
            AND (%(from)s::timestamptz IS NULL OR p.valid_to IS NULL OR p.valid_to > %(from)s::timestamptz)
            AND (%(to)s::timestamptz IS NULL OR p.valid_from IS NULL OR p.valid_from < %(to)s::timestamptz)
          LIMIT %(cap)s) c
    ORDER BY score DESC, c.id
    LIMIT %(k)s
),
found AS MATERIALIZED (  -- every entity the rows point at, resolved at once (0073; the ids as a column, 0086)
    SELECT f.* FROM (SELECT ARRAY(SELECT DISTINCT unnest(t.entity_ids) FROM top t) AS ids) a,
                    LATERAL wm_projection_entities(a.ids, %(kind)s::text) f
)
SELECT top.*,
       (SELECT coalesce(json_agg(f ORDER BY array_position(top.entity_ids, f.source_id)), '[]'::json)
        FROM found f WHERE f.source_id = ANY(top.entity_ids)) AS entities
FROM top
ORDER BY top.score DESC, top.id

-- Projections whose text holds every word of the query in its German or its English stemming, the %(k)s
-- best by ts_rank; stop words of each language are dropped. The stemmed texts are stored columns
-- (migration 0041): `tsv @@ q` is LEAKPROOF, so under row-level security it is an index condition (an
-- expression `to_tsvector(text) @@ q` is not, and re-parsed all of the owner's texts: 5.1 s at 74,000).
-- The words are matched in wm_owned_tsv(owner_sub, tsv), the stemming plus the owner's lexeme (0078), with
-- the owner's lexeme as a second condition on the same GIN index: the scan visits the owner only where the
-- rarest word is (0041's (owner_sub, tsv) indexes, grown row by row, took 10-16 ms per language at 74,000
-- projections for a word no text holds; now 0.1-0.5 ms). `(SELECT wm_owner_tsquery())` on purpose: as an InitPlan the planner cannot fold
-- it, estimates it at the default 1 in 200, and so does not AND the owner btree's 74,000 rows into the bitmap (custom and
-- generic plans; tests/test_search_plans.py). The stored columns themselves are matched again on the few rows the
-- index finds, so the owner's lexeme is never a word of the text (a query for it finds nothing): as a condition
-- of its own beside the index's OR, which the bitmap scan then leaves out of its filter (inside each arm of
-- the OR, as before 0082, the filter called wm_owned_tsv, plpgsql, twice per row found: 0.6 of 1.1 ms for a
-- word 122 texts hold; for the owner's rows the two forms are the same condition). Ranked on
-- the stored columns as before. The query's two stemmings are parsed once (`words`): the lists run generic plans
-- (finder_set_plans, 0082), where plainto_tsquery of a parameter is not folded into a constant and ran for every
-- row found, four times (0.98 against 0.62 ms for a word 122 texts hold). With a time range only
-- rows valid during it (rows without a range always count).
-- entities: the entities the row points at, as the ledger has them now (a merged one as its survivor,
-- wm_projection_entities, 0073; of kind %(kind)s when given), so no second round trip reads them: json, in
-- entity_ids' order. The ids go to the function as a column, not a subquery, so the planner inlines it (0086).
-- Ranking reads every row it ranks, so it ranks at most %(cap)s of the rows holding every word, the first the
-- bitmap scan reaches (the table's order), not every one: in bench.recall_scale a name alone matched 12,209
-- template turns (about 30 ms to rank them all). Each of those rows holds every word of the query; the episode
-- list (finder_search_episodes) brings the rows of each word alone.
-- Returns: id, source_kind, source_key, text, entity_ids, valid_from, valid_to, score, entities
WITH words AS MATERIALIZED (  -- parsed once: in a generic plan plainto_tsquery of a parameter ran for every row
    SELECT plainto_tsquery('german', %(query)s) AS de, plainto_tsquery('english', %(query)s) AS en
),
top AS MATERIALIZED (
    SELECT c.id, c.source_kind, c.source_key, c.text, c.entity_ids, c.valid_from, c.valid_to,
           greatest(ts_rank(c.tsv_german, (SELECT de FROM words)),
                    ts_rank(c.tsv_english, (SELECT en FROM words)))::float8 AS score
    FROM (SELECT p.* FROM memory_projections p
          WHERE p.owner_sub = wm_owner()
            AND (wm_owned_tsv(p.owner_sub, p.tsv_german) @@ (SELECT de FROM words)
                 AND wm_owned_tsv(p.owner_sub, p.tsv_german) @@ (SELECT wm_owner_tsquery())
              OR wm_owned_tsv(p.owner_sub, p.tsv_english) @@ (SELECT en FROM words)
                 AND wm_owned_tsv(p.owner_sub, p.tsv_english) @@ (SELECT wm_owner_tsquery()))
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

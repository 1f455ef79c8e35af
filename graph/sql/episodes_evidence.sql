-- The turns the evidence of facts %(ids)s may come from: the one a fact's evidence.ref names
-- ('episode:<turn id>'), and the turns of the curator run that wrote it (its run id's latest row: chat and
-- seq range). A fact with neither (written through the API without a ref, or by an integration) has no row.
-- Returns: fact_id, evidence (the fact's), the episode columns (graph.episodes.model.from_row)
WITH f AS (
    SELECT f.id AS fact_id, f.run_id, f.evidence,
           CASE WHEN f.evidence->>'ref' ~ '^episode:[0-9a-fA-F-]{36}$'
                THEN substr(f.evidence->>'ref', 9)::uuid END AS named
    FROM facts f
    WHERE f.id = ANY(%(ids)s::uuid[])
),
run AS (
    SELECT DISTINCT ON (r.run_id) r.run_id, r.chat_id, r.from_seq, r.upto_seq
    FROM curator_runs r
    WHERE r.run_id IN (SELECT f.run_id FROM f)
    ORDER BY r.run_id, r.recorded_at DESC
)
SELECT f.fact_id, f.evidence, t.id, t.chat_id, t.seq, t.external_id, t.occurred_at, t.speaker, t.role, t.text
FROM f
JOIN chat_turns t ON t.id = f.named
UNION ALL
SELECT f.fact_id, f.evidence, t.id, t.chat_id, t.seq, t.external_id, t.occurred_at, t.speaker, t.role, t.text
FROM f
JOIN run ON run.run_id = f.run_id
JOIN chat_turns t ON t.chat_id = run.chat_id AND t.seq BETWEEN run.from_seq AND run.upto_seq
ORDER BY fact_id, seq

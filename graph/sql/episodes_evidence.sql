-- The turns a fact's evidence may come from: the one its evidence.ref names ('episode:<turn id>'), and the
-- turns of the curator run that wrote it (its run id's latest row: chat and seq range). No row: the fact has
-- neither (written through the API without a ref, or by an integration).
-- Returns: evidence (the fact's), the episode columns (graph.episodes.model.from_row)
WITH f AS (
    SELECT f.run_id, f.evidence,
           CASE WHEN f.evidence->>'ref' ~ '^episode:[0-9a-fA-F-]{36}$'
                THEN substr(f.evidence->>'ref', 9)::uuid END AS named
    FROM facts f
    WHERE f.id = %(id)s
),
run AS (
    SELECT r.chat_id, r.from_seq, r.upto_seq
    FROM curator_runs r, f
    WHERE r.run_id = f.run_id
    ORDER BY r.recorded_at DESC
    LIMIT 1
)
SELECT f.evidence, t.id, t.chat_id, t.seq, t.external_id, t.occurred_at, t.speaker, t.role, t.text
FROM f
JOIN chat_turns t ON t.id = f.named
UNION ALL
SELECT f.evidence, t.id, t.chat_id, t.seq, t.external_id, t.occurred_at, t.speaker, t.role, t.text
FROM f, run
JOIN chat_turns t ON t.chat_id = run.chat_id AND t.seq BETWEEN run.from_seq AND run.upto_seq
ORDER BY seq

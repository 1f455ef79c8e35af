-- bench.erase_bench: %(n)s chat turns of the owner, one in fifty naming the erased entity's value
-- ('reading <k>'), the rest ordinary words, so the erasure's text matching has a chat to read.
INSERT INTO chat_turns (owner_sub, chat_id, seq, role, text)
SELECT %(owner)s, 'bench', k, CASE WHEN k %% 2 = 0 THEN 'user' ELSE 'assistant' END,
       CASE WHEN k %% 50 = 0 THEN 'the last value was reading ' || k
            ELSE 'we talked about the weather and the garden, turn ' || k END
FROM generate_series(1, %(n)s) AS k

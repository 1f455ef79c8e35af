-- factHistory(%(ref)s, %(predicate)s) in one statement (one round trip): the ref resolved as believed now without
-- following merges (wm_resolve, graph/sql/functions/: a merged entity's history is its own rows), the series'
-- retention notice rows (wm_notice_series, 0075) and every row ever recorded for (entity, predicate).
-- Columns: outcome and via, entity_id / _ref / _kind / _name, edge / rollups (the series' notice, NULL
-- without a retention edge), then the fact's as reads_state_at.sql (id NULL on the one row of an empty history).
-- The statement is the body of wm_read_fact_history (graph/sql/functions/), which first pins %(owner)s for this statement's
-- implicit transaction (wm_pin_reader; Database.read_pinned sends it alone): one message, one round trip.
-- Rows in the body's ORDER BY (WITH ORDINALITY keeps it; `ordinality` is one more column).
SELECT * FROM wm_read_fact_history(%(owner)s, %(ref)s, %(predicate)s) WITH ORDINALITY AS r ORDER BY r.ordinality

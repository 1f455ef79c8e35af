-- stateAsKnownAt(%(ref)s, %(system_time)s, %(valid_time)s) in one statement (one round trip): the ref resolved as of
-- that system time (wm_resolve, graph/sql/functions/: aliases believed then, merges recorded and not yet split
-- then), the retention notice's rows (wm_notice_as_of, 0075) and what was believed then about that valid
-- time: rows that were beliefs (never pending ones) and known then (wm_known, the one as-of condition: 0015).
-- Columns: as reads_state_at.sql.
-- The statement is the body of wm_read_state_known_at (graph/sql/functions/), which first pins %(owner)s for this statement's
-- implicit transaction (wm_pin_reader; Database.read_pinned sends it alone): one message, one round trip.
-- Rows in the body's ORDER BY (WITH ORDINALITY keeps it; `ordinality` is one more column).
SELECT * FROM wm_read_state_known_at(%(owner)s, %(ref)s, %(system_time)s, %(valid_time)s) WITH ORDINALITY AS r ORDER BY r.ordinality

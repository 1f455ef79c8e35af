-- erasure_announce: tells every server process (graph/platform/live.py) that an erasure committed, so each
-- forgets what it remembers of texts (query vectors, GraphQL documents) that may name what went. Empty
-- payload: any role may LISTEN, and the channel alone says enough. Delivered at COMMIT, dropped on ROLLBACK.
SELECT pg_notify('worldmem_erased', '')

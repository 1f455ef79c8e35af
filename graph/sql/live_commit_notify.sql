-- live_commit_notify: tell listeners (the explorer's memoryCommitted subscription) that a proposal committed:
-- wm_announce_commit (0076) says what the announcement holds and why (ids and counts only). Used by the sync
-- writer; the committer sends the same announcement from commit_record.sql. Columns: none (one void).
SELECT wm_announce_commit(%(run_id)s, %(committed)s::int, %(pending)s::int)

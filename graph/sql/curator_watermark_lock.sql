-- The chat's watermark, locked until the curator's commit transaction ends (a concurrent batch waits,
-- then sees the moved watermark and gives up as stale instead of committing the same turns twice).
SELECT watermark_seq, last_seq FROM curator_state WHERE chat_id = %(chat_id)s FOR UPDATE

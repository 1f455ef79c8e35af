-- Move the chat's watermark forward to upto (never back; never past the last turn).
-- No row: the chat has no turns, or upto is past its last turn.
-- Returns: watermark_seq (after the update)
UPDATE curator_state
SET watermark_seq = greatest(watermark_seq, %(upto)s), updated_at = clock_timestamp()
WHERE chat_id = %(chat_id)s AND %(upto)s <= last_seq
RETURNING watermark_seq

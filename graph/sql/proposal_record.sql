INSERT INTO proposals (run_id, chat_id, payload_hash, recorded_at, result)
VALUES (%(run_id)s, %(chat_id)s, %(payload_hash)s, %(recorded_at)s, %(result)s)

-- batch_new_ids: %(n)s fresh row ids for one batched proposal (graph/ledger/writer_buffered.py), as one array.
-- Columns: ids. uuidv7() is what the ledger tables default to; taken up front so set-based inserts can name
-- their rows (and the batch can answer reads of them) before they are sent.
SELECT array_agg(uuidv7()) AS ids FROM generate_series(1, %(n)s)

-- Whether the batch with this run id was recorded as skipped (a retried skip then replays it).
-- Returns: skipped
SELECT EXISTS (SELECT 1 FROM curator_runs
               WHERE owner_sub = wm_owner() AND run_id = %(run_id)s AND status = 'skipped') AS skipped

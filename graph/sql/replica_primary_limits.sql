-- Settings a hot standby must have at least as high as its primary (else it refuses to start).
SELECT name, setting
FROM pg_settings
WHERE name IN ('max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions',
               'max_locks_per_transaction')
ORDER BY name

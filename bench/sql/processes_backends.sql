-- bench.processes: the server backends connected to the bench's database (their CPU is read from /proc)
SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()

-- Re-read pg_hba.conf and postgresql.conf: sessions go on (a restart would end every session of the cluster).
SELECT pg_reload_conf() AS reloaded

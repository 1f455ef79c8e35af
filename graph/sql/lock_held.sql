-- lock_held: whether this session still holds the lock (pg_locks' advisory rows of the two-key form carry the
-- keys in classid and objid, and objsubid 2). A round trip that also proves the session is alive.
SELECT EXISTS (
    SELECT 1 FROM pg_catalog.pg_locks l
    WHERE l.locktype = 'advisory' AND l.pid = pg_catalog.pg_backend_pid() AND l.granted
      AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
      AND l.classid = %(kind)s::integer::oid AND l.objid = hashtext(%(name)s)::oid AND l.objsubid = 2
) AS held

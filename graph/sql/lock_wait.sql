-- lock_wait: the same lock as lock_try, waited for (bounded by the session's lock_timeout)
SELECT pg_advisory_lock(%(kind)s, hashtext(%(name)s))

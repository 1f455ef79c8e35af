-- lock_try: a session advisory lock (two-key form: a kind of work, then the item's name hashed), taken only if
-- free. Held until released or until the session ends, so a process that dies hands it over by itself.
SELECT pg_try_advisory_lock(%(kind)s, hashtext(%(name)s)) AS got

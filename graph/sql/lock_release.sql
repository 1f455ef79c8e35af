-- lock_release: give back one hold of a lock taken by lock_try or lock_wait
SELECT pg_advisory_unlock(%(kind)s, hashtext(%(name)s)) AS released

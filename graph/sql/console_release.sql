SELECT pg_advisory_unlock_all()

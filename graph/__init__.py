"""The store: the bitemporal ledger in PostgreSQL and its graph mirror in Apache AGE."""

-- retention_observed_owners: owners with rows in a month's partition, and how many. Columns: owner_sub, n.
SELECT owner_sub, n FROM wm_observed_owners(%(month)s::date)

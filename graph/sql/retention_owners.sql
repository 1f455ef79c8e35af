-- retention_owners: every owner that ever had a token (api_tokens has no RLS; writing needs a token), and
-- those with observed events (wm_observed_owners reads the partitions). Columns: owner_sub.
SELECT DISTINCT owner_sub FROM api_tokens ORDER BY owner_sub

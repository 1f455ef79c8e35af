-- Every owner that ever had a token (api_tokens has no RLS): the owners the finder's reconciler visits.
-- Returns: owner_sub
SELECT DISTINCT owner_sub FROM api_tokens ORDER BY owner_sub

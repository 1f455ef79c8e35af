-- first_statistics: ANALYZE the ledger tables that have never been analysed (migration 0071); how many.
SELECT wm_first_statistics() AS analysed

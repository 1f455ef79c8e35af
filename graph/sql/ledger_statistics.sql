-- ledger_statistics: ANALYZE the ledger tables that were never analysed or have more than doubled since
-- (migration 0072); how many.
SELECT wm_ledger_statistics() AS analysed

-- ledger_statistics: ANALYZE the ledger tables that were never analysed or have more than doubled since
-- (wm_ledger_statistics); how many.
SELECT wm_ledger_statistics() AS analysed

-- transfer_columns: the stored columns of one ledger table that an export carries and an import writes: all
-- but the owner (the policies' default fills it) and the generated ones (the database derives them again).
-- Columns: column_name, in the table's order.
SELECT column_name FROM information_schema.columns
WHERE table_schema = 'public' AND table_name = %(table)s AND is_generated = 'NEVER' AND column_name <> 'owner_sub'
ORDER BY ordinal_position

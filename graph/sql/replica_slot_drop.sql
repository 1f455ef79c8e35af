-- A standby's physical replication slot, dropped when the standby is (an unused slot keeps WAL forever).
SELECT pg_drop_replication_slot(slot_name) AS dropped
FROM pg_replication_slots
WHERE slot_name = %(slot)s AND NOT active

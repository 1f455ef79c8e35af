"""Erasure at the owner's request: hard purge, receipts, tombstones (docs/erasure.md)."""

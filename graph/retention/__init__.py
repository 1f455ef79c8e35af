"""Retention: windowed data is rolled up into memory_projections summaries, then pruned."""

"""Retention (issue 13): windowed data is rolled up into memory_projections summaries, then pruned."""

"""Owners spread over clusters: where each owner lives, how a request finds it, and moving an owner."""

"""Domains kept on the graph (issue 15): contacts, commitments, and attribute history for automations."""

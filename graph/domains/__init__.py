"""Domains kept on the graph: contacts, commitments, and attribute history for automations."""

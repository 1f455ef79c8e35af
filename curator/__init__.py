"""The curator proposes memory mutations; it never writes. The committer (graph.ledger.committer) writes.

Only the proposal model lives here so far; the LLM curator arrives with its own issue.
"""

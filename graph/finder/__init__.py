"""The finder ("graph = truth, RAG = finder"): projections of things worth finding by a fuzzy
question, their embeddings, and hybrid search. What is true is always read from the ledger."""

"""Episodes: the chat turns as searchable memory."""

"""Export of an owner's whole memory as a versioned JSON Lines file, and its import into an empty owner."""

"""The curator on Temporal: one workflow per chat (debounce, then one coalesced batch run), its activities
(load, analyse, validate, commit) and the worker (`worldmem worker`)."""

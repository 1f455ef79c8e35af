LISTEN worldmem_commit; LISTEN worldmem_erased

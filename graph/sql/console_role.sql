SET LOCAL ROLE worldmem_console

-- The console role is reached only by SET ROLE from the app (0006, 0019); it never logs in.
ALTER ROLE worldmem_console NOLOGIN PASSWORD NULL

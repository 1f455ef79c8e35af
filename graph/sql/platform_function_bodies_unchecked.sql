-- As pg_dump restores: a function body may name what a later file or migration creates.
SET LOCAL check_function_bodies = off

SELECT set_config('app.current_owner', %s, true), set_config('statement_timeout', %s, true)

SELECT set_config('app.current_owner', %s, true)

SELECT set_config('app.current_owner', %s, true), set_config('transaction_read_only', 'on', true)

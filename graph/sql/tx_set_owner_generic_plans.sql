-- Database.read_round with generic_plans: the owner and READ ONLY as tx_set_owner_read_only sets them, and
-- prepared generic plans, all transaction-locally, in one statement. The context builder's queries are few
-- and run on every turn: plan them once per connection instead of per call (measured at 100k entities,
-- custom planning cost more than running). Setting the plan mode here instead of in a statement of its own
-- saves that statement's bind, execute and result on every turn of the context builder's round.
SELECT set_config('app.current_owner', %s, true), set_config('transaction_read_only', 'on', true),
       set_config('plan_cache_mode', 'force_generic_plan', true)

-- The context builder's queries are few and run on every turn: plan them once per connection (prepared
-- generic plans) instead of per call. Measured at 100k entities: custom planning cost more than running.
SELECT set_config('plan_cache_mode', 'force_generic_plan', true)

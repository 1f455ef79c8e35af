-- World events of the runs; everything after the user message is caused by the one before it.
INSERT INTO world_events (id, owner_sub, event_type, occurred_at, recorded_at, target_entity_id,
                          caused_by_event_id, correlation_id, causation_kind, intent, expected_effect,
                          goal_ref, intent_outcome, run_id, summary)
SELECT v.id, v.owner,
       (ARRAY['user_message', 'agent_tool_call', 'test_result', 'test_result', 'state_change'])[v.slot + 1],
       %(t0)s - make_interval(mins => %(runs)s - v.k) + make_interval(secs => v.slot),
       %(t0)s - make_interval(mins => %(runs)s - v.k) + make_interval(secs => v.slot),
       CASE WHEN v.slot = 1 THEN t.id END,
       c.id, 'run-' || v.k, CASE WHEN v.slot > 0 THEN 'direct' END,
       CASE WHEN v.slot = 1 THEN 'make the tests pass' END,
       CASE WHEN v.slot = 1 THEN jsonb_build_object('target', t.kind || ':e' || t.i, 'predicate', 'status',
                                                    'expected_value', 'passing') END,
       CASE WHEN v.slot = 1 THEN 'goal:green-build' END,
       CASE WHEN v.slot = 1 THEN 'unfulfilled' END,
       'run-' || v.k,
       (ARRAY['user asks for a fix', 'edit_file', 'test failed', 'test failed', 'status changed'])[v.slot + 1]
FROM bench.ev v
LEFT JOIN bench.ev c ON c.owner = v.owner AND c.k = v.k AND c.slot = CASE WHEN v.slot = 1 THEN 0 ELSE 1 END
                    AND v.slot > 0
LEFT JOIN bench.ent t ON t.owner = v.owner AND t.i = 1 + mod(v.k * 8 + 3, %(n)s)
WHERE v.owner = %(owner)s

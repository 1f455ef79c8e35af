INSERT INTO world_events (
    event_type, occurred_at, observed_at, recorded_at, actor_entity_id, target_entity_id,
    caused_by_event_id, correlation_id, causation_kind, intent, expected_effect, goal_ref, run_id, chat_id,
    tool_call_id, automation_id, payload, summary, external_ref, op_index
) VALUES (
    %(event_type)s, %(occurred_at)s, %(observed_at)s, %(recorded_at)s, %(actor_entity_id)s,
    %(target_entity_id)s, %(caused_by_event_id)s, %(correlation_id)s, %(causation_kind)s, %(intent)s,
    %(expected_effect)s, %(goal_ref)s, %(run_id)s, %(chat_id)s, %(tool_call_id)s, %(automation_id)s,
    %(payload)s, %(summary)s, %(external_ref)s, %(op_index)s
)
ON CONFLICT (owner_sub, external_ref) WHERE external_ref IS NOT NULL DO NOTHING
RETURNING id

-- Entities this chat's latest proposals wrote about (subjects of their facts), most recent first: the
-- curator's "recently touched" entities, so "she" in a new turn can be resolved to the cat of the last one.
-- The latest proposals by proposals_chat, their facts by facts' run index.
SELECT e.ref, e.kind, e.canonical_name, max(f.recorded_at) AS touched_at
FROM (SELECT run_id FROM proposals
      WHERE owner_sub = wm_owner() AND chat_id = %(chat_id)s
      ORDER BY recorded_at DESC LIMIT %(proposals)s) p
JOIN facts f ON f.owner_sub = wm_owner() AND f.run_id = p.run_id
JOIN entities e ON e.id = f.subject_id AND e.status <> 'merged'
GROUP BY e.ref, e.kind, e.canonical_name
ORDER BY touched_at DESC
LIMIT %(limit)s

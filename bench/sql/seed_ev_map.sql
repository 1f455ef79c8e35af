-- Run k has five events: 0 user message, 1 agent tool call, 2-3 test results, 4 state change.
INSERT INTO bench.ev (owner, k, slot, id, gid)
SELECT %(owner)s, k, slot, uuidv7(),
       ag_catalog._graphid(ag_catalog._label_id('worldgraph', 'Event')::integer, %(voff)s + (k - 1) * 5 + slot + 1)
FROM generate_series(1, %(runs)s) AS k, generate_series(0, 4) AS slot

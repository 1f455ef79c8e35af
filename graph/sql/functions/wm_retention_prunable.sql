SET LOCAL ROLE worldmem_owner;

-- Whether a fact row may be pruned once the window's edge is `edge`: windowed, never the user's words, a
-- curated preference, an agent action with a reason, a correction (invalidated) or a pending row;
-- literal values only (a relationship row is also an AGE edge: those stay); and its whole life lies
-- before the edge on one axis: it stopped holding (valid_to) or stopped being believed (superseded_at)
-- at or before the edge. So a read about a valid time and a system time both at or after the edge
-- finds every row it found before pruning. The Python twin is graph/retention/classes.py `prunable`.
CREATE OR REPLACE FUNCTION wm_retention_prunable(retention_class text, source text, memory_type text, reason text,
                                      status text, object_kind text, valid_to timestamptz,
                                      superseded_at timestamptz, edge timestamptz) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN retention_class = 'windowed' AND source <> 'user' AND memory_type IS NULL AND reason IS NULL
       AND status IN ('active', 'superseded') AND object_kind = 'literal'
       AND ((valid_to IS NOT NULL AND valid_to <= edge) OR (superseded_at IS NOT NULL AND superseded_at <= edge));

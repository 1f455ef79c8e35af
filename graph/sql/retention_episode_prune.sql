-- Prune episodes a rollup now stands for: the turns and their projections (same transaction as the rollup),
-- through wm_retention_prune_episodes (the app role deletes no turn itself).
-- Returns: n (turns deleted)
SELECT wm_retention_prune_episodes(%(ids)s::uuid[]) AS n

-- How many finder projections the owner in app.current_owner has (bench.http_reads projects an owner with none).
SELECT count(*) AS n FROM memory_projections

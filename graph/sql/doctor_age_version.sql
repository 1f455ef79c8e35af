SELECT extversion AS version FROM pg_extension WHERE extname = 'age'

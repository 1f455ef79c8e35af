"""The boundary: GraphQL schema and resolvers, the FastAPI app factory and the command line."""

"""The GraphQL documents the client sends: one per tool, each asking for the agent text only."""

FIND_ENTITY = "query($query: String!, $kind: String) { findEntity(query: $query, kind: $kind) { text } }"
GET_ENTITY = "query($ref: String!) { getEntity(ref: $ref) { text } }"
RECALL_FACTS_ABOUT = """query($entityOrQuery: String!, $predicate: String, $scope: String) {
  recallFactsAbout(entityOrQuery: $entityOrQuery, predicate: $predicate, scope: $scope) { text } }"""
GET_FACT_HISTORY = """query($ref: String!, $predicate: String!) {
  getFactHistory(ref: $ref, predicate: $predicate) { text } }"""
STATE_AT = "query($ref: String!, $validTime: DateTime!) { getStateAt(ref: $ref, validTime: $validTime) { text } }"
STATE_AS_KNOWN_AT = """query($ref: String!, $systemTime: DateTime!, $validTime: DateTime) {
  getStateAsKnownAt(ref: $ref, systemTime: $systemTime, validTime: $validTime) { text } }"""
SEARCH_WORLD_MEMORY = "query($query: String!, $limit: Int) { searchWorldMemory(query: $query, limit: $limit) { text } }"
WORLD_CONTEXT = """query($message: String!, $chatId: String, $scope: String, $scopeChain: [String!],
  $budgetTokens: Int) {
  worldContext(message: $message, chatId: $chatId, scope: $scope, scopeChain: $scopeChain,
               budgetTokens: $budgetTokens) {
    markdown warnings } }"""
GET_NEIGHBORS = """query($ref: String!, $depth: Int) { getNeighbors(ref: $ref, depth: $depth) { text } }"""
EFFECTS_OF = """query($eventOrRun: String!, $depth: Int) {
  getEffectsOf(eventOrRun: $eventOrRun, depth: $depth) { text } }"""
EXPLAIN_CHANGE = """query($ref: String, $predicate: String, $factId: ID) {
  getChangeExplanation(ref: $ref, predicate: $predicate, factId: $factId) { text } }"""
EXPORT_CONVENTIONS = """mutation($repo: String!, $language: String) {
  exportConventions(repo: $repo, language: $language) { text } }"""
RECORD_BUILD_RESULT = """mutation($result: BuildResultInput!) {
  recordBuildResult(result: $result) { runId replayed retentionClass } }"""

// Every GraphQL document of the explorer. Typed by graphql-codegen from ../schema.graphql (src/gql/).
import { graphql } from './gql'

export const FIND = graphql(`
  query Find($query: String!) {
    findEntity(query: $query, limit: 8) { matches { ref kind name score via matched } ambiguous message }
    searchWorldMemory(query: $query, limit: 10) {
      message
      hits {
        score text foundBy entity { ref kind name via matched } fact { subject text fact { id predicate value } }
        episode { id chatId externalId occurredAt speaker role text } memory { id sourceKind text about }
      }
    }
  }
`)

export const FACT_FIELDS = graphql(`
  fragment FactFields on Fact {
    id predicate value objectRef validFrom validTo recordedAt supersededAt status source confidence scope
    memoryType reason evidence supersedesFactId runId
  }
`)

// Set when the instant lies before the retention edge: observed values there were rolled up and pruned.
export const RETENTION_FIELDS = graphql(`
  fragment RetentionFields on RetentionNotice { reason edge rollups { month text } }
`)

export const STATE_VALID = graphql(`
  query StateValid($ref: String!, $at: DateTime!) {
    stateAt(ref: $ref, validTime: $at) { ref kind name facts { ...FactFields } retention { ...RetentionFields } }
  }
`)

export const STATE_KNOWN = graphql(`
  query StateKnown($ref: String!, $at: DateTime!) {
    stateAsKnownAt(ref: $ref, systemTime: $at) { ref kind name facts { ...FactFields } retention { ...RetentionFields } }
  }
`)

export const ENTITY_EXTRAS = graphql(`
  query EntityExtras($ref: String!, $validTime: DateTime, $systemTime: DateTime) {
    getEntity(ref: $ref, validTime: $validTime, systemTime: $systemTime) { entity { ref kind name } description aliases }
    neighbors(ref: $ref, depth: 1, validTime: $validTime, systemTime: $systemTime) {
      origin { id ref kind name }
      hops { factId predicate label direction source { id ref kind name } target { id ref kind name } validFrom validTo }
    }
    entityEvents(ref: $ref, limit: 30, validTime: $validTime, systemTime: $systemTime) { ...EventFields }
  }
`)

export const EVENT_FIELDS = graphql(`
  fragment EventFields on CausalEvent {
    id eventType occurredAt recordedAt depth causedByEventId causationKind correlationId runId summary intent
    expectedEffect goalRef intentOutcome actorRef targetRef
  }
`)

export const HISTORY = graphql(`
  query History($ref: String!, $predicate: String!) { factHistory(ref: $ref, predicate: $predicate) { ...FactFields } }
`)

export const EXPLAIN = graphql(`
  query Explain($factId: ID!) {
    explainChange(factId: $factId) {
      subjectRef fact { ...FactFields evidenceEpisode { id chatId externalId speaker role occurredAt text } }
      supersedes { ...FactFields } supersededBy { ...FactFields }
      causes { ...EventFields } root { id } intent { id intent intentOutcome } hypothesis
    }
  }
`)

export const EFFECTS = graphql(`
  query Effects($eventId: ID, $runId: String) {
    effectsOf(eventId: $eventId, runId: $runId, depth: 5) {
      events { ...EventFields } facts { subjectRef causedByEventId depth fact { ...FactFields } } truncated
    }
  }
`)

export const NEIGHBOURHOOD = graphql(`
  query Neighbourhood($ref: String!, $depth: Int!, $predicates: [String!], $direction: Direction!,
                      $validTime: DateTime, $systemTime: DateTime) {
    neighbors(ref: $ref, depth: $depth, predicates: $predicates, direction: $direction, validTime: $validTime,
              systemTime: $systemTime) {
      origin { id ref kind name }
      hops { depth factId predicate label direction source { id ref kind name } target { id ref kind name } }
      truncated
    }
    relationTypes { key name }
  }
`)

export const GLOBAL = graphql(`
  query Global($limit: Int!, $kinds: [String!], $predicates: [String!]) {
    globalGraph(limit: $limit, kinds: $kinds, predicates: $predicates) {
      nodes { id ref kind name degree pagerank community }
      edges { factId predicate source target }
      totalNodes totalEdges truncated
    }
    entityKinds { key name }
    relationTypes { key name }
  }
`)

export const CYPHER = graphql(`
  query Cypher($query: String!) { cypher(query: $query) { columns rows truncated } }
`)

export const LIVE = graphql(`
  subscription Live { memoryCommitted { entityIds committed pending summary } }
`)

export const CHECK = graphql(`
  query Check { entityKinds { key } }
`)

export const PENDING = graphql(`
  query Pending { pendingReview(limit: 50) { items { kind factId entityRefs } } }
`)

export const CONTACTS = graphql(`
  query Contacts($name: String) {
    contacts(name: $name, limit: 100) { ref name identities { identity namespace value validFrom validTo source } }
  }
`)

// The first page after login: who the owner is, what memory holds (ranked), and what waits for review.
export const WELCOME = graphql(`
  query Welcome {
    me: findEntity(query: "me", limit: 1) { matches { ref name kind via matched } }
    globalGraph(limit: 6) { nodes { ref name kind degree } totalNodes totalEdges }
    pendingReview(limit: 50) { items { kind } }
  }
`)

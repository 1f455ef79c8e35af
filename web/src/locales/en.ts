// English. Every key here must exist in de.ts and the other way round (i18n.spec.ts).
import type de from './de'

const en: typeof de = {
  app: { title: 'Gedächtnis', skip: 'Skip to content', language: 'Language', logout: 'Log out' },
  nav: { search: 'Search', explore: 'Overview', contacts: 'Contacts', console: 'Cypher console', main: 'Main navigation' },
  contacts: {
    heading: 'Contacts', label: 'Part of a name', submit: 'Filter', none: 'No contacts.', noIdentities: 'no identities',
    since: 'since', until: 'until',
  },
  login: {
    heading: 'Log in', token: 'Owner token', hint: 'Create one: worldmem token create --owner demo',
    submit: 'Log in', invalid: 'This token is not accepted.', needed: 'Please paste a token.',
  },
  search: {
    heading: 'What does the memory know?', label: 'Name, alias or term', submit: 'Search',
    entities: 'Entities', facts: 'Facts', none: 'Nothing found.', ambiguous: 'Ambiguous: please pick one.',
    via: 'found by {how}', episodes: 'Said in chats', memories: 'Memories', chat: 'chat',
  },
  via: {
    ref: 'its ref', name: 'its name', alias: 'an alias', nameInQuery: 'its name in the query',
    aliasInQuery: 'an alias in the query', similarName: 'a similar name', similarAlias: 'a similar alias',
    owner: 'the owner', text: 'the text', finder: 'full-text and vector search', other: 'another match',
  },
  welcome: {
    summary: 'In memory: {entities} entities, {edges} relationships.', owner: 'You are',
    pending: 'Nothing waits for review. | 1 item waits for review. | {n} items wait for review.',
    entities: 'Best connected', degree: 'no relationship | 1 relationship | {n} relationships',
    examples: 'Try searching for', empty: 'Memory is still empty: record a conversation (recordTurn) or load the demo (worldmem demo).',
  },
  time: {
    label: 'Instant', now: 'Now', valid: 'What was true on …', system: 'What did the agent know on …',
    expert: 'System time (expert mode)', back: '− 7 days', forward: '+ 7 days', showing: 'Showing',
    current: 'current', format: 'YYYY-MM-DD HH:MM',
    invalid: 'Not a valid instant: please type YYYY-MM-DD HH:MM (e.g. 2026-12-06 14:30).',
  },
  entity: {
    facts: 'Facts', relationships: 'Relationships', outgoing: 'Outgoing', incoming: 'Incoming',
    aliases: 'Aliases', timeline: 'Events', noFacts: 'Nothing is known for this instant.',
    noRelationships: 'No relationships.', noEvents: 'No events.', notFound: 'Unknown entity.',
    unknown: 'No entity “{ref}”.', recordedLater: 'As known on {at}, there was no entity “{ref}”: it was first recorded on {first}.',
    description: 'Description', didYouMean: 'Did you mean:', searchInstead: 'Search for it instead',
    graph: 'Neighbourhood', provenance: 'Provenance', hideProvenance: 'Hide provenance',
    trace: 'Causal trace', policy: 'Policy', hypothesis: 'Hypothesis', scope: 'Scope',
    global: 'global', since: 'since', until: 'until', recorded: 'recorded', evidence: 'Evidence', saidIn: 'said in chat', reason: 'Reason',
    supersedes: 'Replaces', supersededBy: 'Replaced by', chain: 'Supersede chain', causedBy: 'caused by',
    history: 'History of this predicate', confidence: 'Confidence', loading: 'Loading …', updated: 'Memory updated: {committed} committed, {pending} for review',
    retention: 'This instant lies before the retention edge ({edge}): observed values older than that were rolled up into monthly summaries and pruned. What stands in for them:',
  },
  source: { user: 'from the user', agent: 'from the agent', integration: 'from an integration' },
  lifecycle: { active: 'active', pending: 'awaiting review', closed: 'superseded' },
  graph: {
    deeper: 'Past depth 1 the neighbourhood follows only predicates with inference enabled, and the ones picked above; depth 1 shows all.',
    heading: 'Neighbourhood of {name}', depth: 'Depth', direction: 'Direction', predicates: 'Predicates',
    all: 'all', out: 'outgoing', in: 'incoming', both: 'both', truncated: 'Cut short: too many edges.',
    list: 'As a list', empty: 'No edges.', apply: 'Apply',
  },
  trace: {
    heading: 'Causal trace', intent: 'Intent', outcome: 'Outcome', root: 'Root', inferred: 'inferred',
    effects: 'Effects', run: 'Run', causes: 'Causes', empty: 'Nothing found.', hypothesis: 'A link is only inferred.',
    fulfilled: 'fulfilled', partial: 'partial', unfulfilled: 'unfulfilled', unknown: 'not observable',
  },
  explore: {
    heading: 'Overview', limit: 'At most nodes', kinds: 'Kinds', predicates: 'Predicates', apply: 'Show',
    shown: '{shown} of {total} entities, {edges} edges', community: 'Group', entity: 'Entity', rank: 'Rank', all: 'all',
    truncated: 'Only part of the relationships was ranked.',
  },
  console: {
    heading: 'Cypher console', query: 'Query (read-only)', run: 'Run (Ctrl+Enter)',
    rows: '{n} rows', truncated: 'Cut to the row limit.', error: 'Error',
  },
  error: { generic: 'Something went wrong: {message}', offline: 'The server does not answer.' },
}

export default en

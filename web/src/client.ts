// The GraphQL client: queries over POST /graphql, the subscription over graphql-ws on the same path.
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from '@urql/vue'
import { createClient as createWsClient } from 'graphql-ws'
import { readAfterFetch } from './readafter'

export function graphqlUrl(): string {
  return new URL('graphql', window.location.href.split('#')[0]).toString()
}

export function makeClient(token: () => string | null): Client {
  const ws = createWsClient({
    url: graphqlUrl().replace(/^http/, 'ws'),
    lazy: true,
    retryAttempts: 20,
    shouldRetry: () => true,
    connectionParams: () => ({ Authorization: `Bearer ${token() ?? ''}` }),
  })
  return new Client({
    url: graphqlUrl(),
    preferGetMethod: false,
    fetch: readAfterFetch(),
    requestPolicy: 'cache-and-network',
    fetchOptions: () => ({ headers: { Authorization: `Bearer ${token() ?? ''}` } }),
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query || '' }
          return { subscribe: (sink) => ({ unsubscribe: ws.subscribe(input, sink) }) }
        },
      }),
    ],
  })
}

// Helpers for component tests: i18n, a memory router and a urql client answering from fixed data.
import { createMemoryHistory, createRouter } from 'vue-router'
import { createPinia } from 'pinia'
import urql, { Client } from '@urql/vue'
import { fromValue, never } from 'wonka'
import { makeI18n } from './i18n'

export function testRouter() {
  const stub = { template: '<div />' }
  return createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'search', component: stub },
      { path: '/entity/:ref', name: 'entity', component: stub },
      { path: '/trace', name: 'trace', component: stub },
    ],
  })
}

/** A client whose every query answers `data(operationName)`; no network. */
export function fakeClient(data: (name: string) => unknown): Client {
  const client = new Client({ url: 'http://test/graphql', exchanges: [] })
  client.executeQuery = ((op: { query: { definitions: { name?: { value: string } }[] } }) => {
    const name = op.query.definitions.find((d) => d.name)?.name?.value ?? ''
    const answer = data(name)
    return answer === undefined ? never : fromValue({ data: answer, operation: op, stale: false, hasNext: false })
  }) as unknown as Client['executeQuery']
  return client
}

export function plugins(router = testRouter(), client = fakeClient(() => undefined), locale: 'de' | 'en' = 'de') {
  return [makeI18n(locale), router, createPinia(), [urql, client]] as const
}

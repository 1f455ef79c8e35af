// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import ContactsPage from './ContactsPage.vue'
import { fakeClient, plugins, testRouter } from '../testing'

const contacts = [
  { ref: 'person:juergen', name: 'Jürgen Groß', identities: [
    { identity: 'email:juergen@example.org', namespace: 'email', value: 'juergen@example.org',
      validFrom: '2026-01-01T00:00:00Z', validTo: null, source: 'integration' },
    { identity: 'phone:+4930123', namespace: 'phone', value: '+4930123',
      validFrom: '2025-01-01T00:00:00Z', validTo: '2026-01-01T00:00:00Z', source: 'user' }] },
  { ref: 'person:basti', name: 'Basti', identities: [] },
]

async function mountPage(locale: 'de' | 'en', query: Record<string, string> = {}) {
  const asked: unknown[] = []
  const client = fakeClient((name) => (name === 'Contacts' ? { contacts } : undefined))
  const execute = client.executeQuery.bind(client)
  client.executeQuery = ((op: { variables: unknown }, ...rest: unknown[]) => {
    asked.push(op.variables)
    return (execute as (...a: unknown[]) => unknown)(op, ...rest)
  }) as typeof client.executeQuery
  const router = testRouter()
  router.addRoute({ path: '/contacts', name: 'contacts', component: ContactsPage })
  await router.push({ name: 'contacts', query })
  const w = mount(ContactsPage, { global: { plugins: plugins(router, client, locale) as never } })
  await flushPromises()
  return { w, asked, router }
}

describe('ContactsPage', () => {
  it('lists each contact with its identities, linked to the entity page', async () => {
    const { w } = await mountPage('en')
    const items = w.findAll('[data-testid=contacts] > li')
    expect(items).toHaveLength(2)
    expect(items[0].find('a').attributes('href')).toContain('/entity/person:juergen')
    expect(items[0].text()).toContain('juergen@example.org')
    expect(items[0].text()).toContain('until 1 Jan 2026')
    expect(items[1].text()).toContain('no identities')
  })
  it('filters by the name in the URL, in German', async () => {
    const { w, asked } = await mountPage('de', { name: 'Juergen' })
    expect(asked).toContainEqual({ name: 'Juergen' })
    expect(w.get('h1').text()).toBe('Kontakte')
    expect(w.findAll('[data-testid=contacts] > li')[1].text()).toContain('keine Kennungen')
  })
})

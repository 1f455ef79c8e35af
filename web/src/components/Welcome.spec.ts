// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import Welcome from './Welcome.vue'
import { fakeClient, plugins, testRouter } from '../testing'

const welcome = (nodes: { ref: string; name: string; kind: string; degree: number }[], pending: number) => ({
  me: { matches: [{ ref: 'person:basti', name: 'Basti', kind: 'person', via: 'alias', matched: 'me' }] },
  globalGraph: { nodes, totalNodes: nodes.length, totalEdges: 4 },
  pendingReview: { items: Array.from({ length: pending }, () => ({ kind: 'PENDING_FACT' })) },
})

async function mounted(data: unknown, locale: 'de' | 'en') {
  const router = testRouter()
  await router.push({ name: 'search' })
  const client = fakeClient((name) => (name === 'Welcome' ? data : undefined))
  const w = mount(Welcome, { global: { plugins: plugins(router, client, locale) as never } })
  await flushPromises()
  return w
}

describe('Welcome', () => {
  const nodes = [{ ref: 'pet:luna', name: 'Luna', kind: 'pet', degree: 2 }, { ref: 'person:basti', name: 'Basti', kind: 'person', degree: 1 }]
  it('says what is there, who the owner is, what waits, and what to try (German)', async () => {
    const w = await mounted(welcome(nodes, 2), 'de')
    const text = w.get('[data-testid=welcome-summary]').text()
    expect(text).toContain('Im Gedächtnis: 2 Entitäten, 4 Beziehungen.')
    expect(text).toContain('Du bist Basti')
    expect(text).toContain('2 Einträge warten auf Prüfung.')
    expect(w.get('[data-testid=welcome-entities]').text()).toContain('Luna pet:luna')
    expect(w.get('[data-testid=welcome-examples]').findAll('a').map((a) => a.text())).toEqual(['Luna', 'Basti'])
  })
  it('speaks English and says when memory is empty', async () => {
    const w = await mounted(welcome([], 0), 'en')
    expect(w.get('[data-testid=welcome-summary]').text()).toContain('Nothing waits for review.')
    expect(w.text()).toContain('Memory is still empty')
  })
})

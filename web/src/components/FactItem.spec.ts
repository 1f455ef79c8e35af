// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import FactItem from './FactItem.vue'
import { fakeClient, plugins, testRouter } from '../testing'

const base = {
  id: 'f1', predicate: 'feeding_time', value: '08:00', objectRef: null, validFrom: '2026-11-16T00:00:00Z', validTo: null,
  recordedAt: '2026-11-27T00:00:00Z', supersededAt: null, status: 'active', source: 'user', confidence: 1,
  scope: null, memoryType: null, reason: null, evidence: { kind: 'message', text: 'told by Basti' },
  supersedesFactId: null, runId: 'demo-2',
}
const old = { ...base, id: 'f0', value: '07:00', validFrom: '2026-10-01T00:00:00Z', status: 'superseded',
  supersededAt: '2026-11-27T00:00:00Z', reason: 'breakfast moved' }

function mountFact(fact = base, kind = 'pet') {
  const client = fakeClient((name) => name === 'History' ? { factHistory: [old, base] }
    : name === 'Explain' ? { explainChange: { subjectRef: 'pet:luna', fact, supersedes: [], supersededBy: [], causes: [
      { id: 'e1', eventType: 'state_change', summary: 'moved', occurredAt: base.recordedAt, recordedAt: base.recordedAt,
        depth: 0, causedByEventId: null, causationKind: null, intent: null, intentOutcome: null }],
      root: { id: 'e1' }, intent: null, hypothesis: false } } : undefined)
  return mount(FactItem, { props: { fact, kind, subject: 'pet:luna' },
    global: { plugins: plugins(testRouter(), client) as never } })
}

describe('FactItem', () => {
  it('shows the value first with lifecycle and scope, provenance folded', () => {
    const w = mountFact()
    expect(w.find('.fact-line').text().startsWith('08:00')).toBe(true)
    expect(w.text()).toContain('🟢')
    expect(w.text()).toContain('global')
    expect(w.find('[data-testid=provenance]').exists()).toBe(false)
    expect(w.find('.shield').exists()).toBe(false)
  })
  it('unfolds provenance: source, confidence, evidence, history and cause', async () => {
    const w = mountFact()
    const toggle = w.get('[data-testid=provenance-toggle]')
    expect(toggle.attributes('aria-expanded')).toBe('false')
    await toggle.trigger('click')
    await flushPromises()
    const panel = w.get('[data-testid=provenance]').text()
    expect(toggle.attributes('aria-expanded')).toBe('true')
    expect(panel).toContain('👤')
    expect(panel).toContain('●●●●')
    expect(panel).toContain('told by Basti')
    expect(w.get('[data-testid=history]').text()).toContain('07:00')
    expect(w.get('[data-testid=history]').text()).toContain('breakfast moved')
    expect(panel).toContain('moved')
  })
  it('dims a hypothesis and shields a policy', () => {
    const guess = mountFact({ ...base, status: 'pending', confidence: 0.3, source: 'agent' })
    expect(guess.classes()).toContain('hypothesis')
    expect(guess.text()).toContain('🟡')
    expect(guess.text()).toContain('Hypothese')
    const rule = mountFact({ ...base, predicate: 'rule' }, 'policy')
    expect(rule.find('.shield').exists()).toBe(true)
  })
})

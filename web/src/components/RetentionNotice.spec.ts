// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import RetentionNotice from './RetentionNotice.vue'
import { plugins } from '../testing'

const notice = {
  reason: 'AS_OF' as const, edge: '2026-09-01T00:00:00Z',
  rollups: [{ month: '2026-03-01', text: 'temperature: 31 readings, 18.5 to 22.0' },
    { month: '2026-04-01', text: 'temperature: 30 readings, 19.0 to 23.5' }],
}

function mountNotice(locale: 'de' | 'en') {
  return mount(RetentionNotice, { props: { notice }, global: { plugins: plugins(undefined, undefined, locale) as never } })
}

describe('RetentionNotice', () => {
  it('says in English why the values are summaries, with the edge and each month', () => {
    const w = mountNotice('en')
    expect(w.get('[data-testid=retention]').attributes('role')).toBe('note')
    expect(w.text()).toContain('before the retention edge (1 Sept 2026')
    const items = w.findAll('li').map((li) => li.text())
    expect(items).toEqual(['March 2026: temperature: 31 readings, 18.5 to 22.0',
      'April 2026: temperature: 30 readings, 19.0 to 23.5'])
  })
  it('says the same in German', () => {
    const w = mountNotice('de')
    expect(w.text()).toContain('vor der Aufbewahrungsgrenze (1. Sept. 2026')
    expect(w.findAll('li')[0].text()).toBe('März 2026: temperature: 31 readings, 18.5 to 22.0')
  })
})

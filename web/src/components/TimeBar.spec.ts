// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import TimeBar from './TimeBar.vue'
import { plugins, testRouter } from '../testing'

async function mounted(query: Record<string, string> = {}) {
  const router = testRouter()
  await router.push({ name: 'entity', params: { ref: 'pet:luna' }, query })
  const w = mount(TimeBar, { global: { plugins: plugins(router) as never } })
  return { w, router }
}

describe('TimeBar', () => {
  it('defaults to valid time now, and the URL carries a step back', async () => {
    const { w, router } = await mounted()
    expect(w.text()).toContain('Was galt am')
    expect(w.get('[data-testid=now]').attributes('disabled')).toBeDefined()
    await w.get('[data-testid=back]').trigger('click')
    await flushPromises()
    const at = Date.parse(String(router.currentRoute.value.query.at))
    expect(Math.abs(Date.now() - 7 * 86_400_000 - at)).toBeLessThan(60_000)
  })
  it('switches to system time as an expert toggle and back to now', async () => {
    const { w, router } = await mounted({ at: '2026-11-01T00:00:00.000Z' })
    await w.get('[data-testid=axis-toggle]').setValue(true)
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ at: '2026-11-01T00:00:00.000Z', axis: 'system' })
    expect(w.text()).toContain('Was wusste der Agent am')
    await w.get('[data-testid=now]').trigger('click')
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ axis: 'system' })
  })
  it('takes the instant typed in the app language, and says when it is not one', async () => {
    const { w, router } = await mounted({ at: new Date(2026, 10, 1, 9, 5).toISOString() })
    const field = w.get('[data-testid=instant]')
    expect((field.element as HTMLInputElement).value).toBe('01.11.2026 09:05')
    expect(field.attributes('placeholder')).toBe('TT.MM.JJJJ HH:MM')
    await field.setValue('24.12.2026 18:00')
    await flushPromises()
    expect(router.currentRoute.value.query.at).toBe(new Date(2026, 11, 24, 18, 0).toISOString())
    await field.setValue('12/24/2026')
    await flushPromises()
    expect(w.get('[data-testid=instant-invalid]').text()).toContain('TT.MM.JJJJ')
    expect(router.currentRoute.value.query.at).toBe(new Date(2026, 11, 24, 18, 0).toISOString())
  })
})

import { describe, expect, it } from 'vitest'
import { formatPeriod, fromLocalInput, fromTyped, instantQuery, parseInstant, shiftDays, toTyped } from './instant'

describe('instant', () => {
  it('reads the instant and axis from the URL query, ignoring nonsense', () => {
    expect(parseInstant({})).toEqual({ at: null, axis: 'valid' })
    expect(parseInstant({ at: '2026-11-01T00:00:00Z', axis: 'system' })).toEqual({ at: '2026-11-01T00:00:00.000Z', axis: 'system' })
    expect(parseInstant({ at: 'yesterday', axis: 'bogus' })).toEqual({ at: null, axis: 'valid' })
  })
  it('writes only what differs from the default', () => {
    expect(instantQuery({ at: null, axis: 'valid' })).toEqual({})
    expect(instantQuery({ at: '2026-11-01T00:00:00.000Z', axis: 'system' })).toEqual({ at: '2026-11-01T00:00:00.000Z', axis: 'system' })
  })
  it('shifts by days from the instant or from now', () => {
    expect(shiftDays('2026-11-08T00:00:00.000Z', -7)).toBe('2026-11-01T00:00:00.000Z')
    expect(shiftDays(null, 1, new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-02T00:00:00.000Z')
    expect(fromLocalInput('nonsense')).toBeNull()
  })
  it('shows an open period with an ellipsis', () => {
    expect(formatPeriod('2026-01-01T00:00:00Z', null, 'en')).toMatch(/2026 – …$/)
  })
})

describe('the typed instant in the app language', () => {
  const at = new Date(2026, 11, 6, 14, 30).toISOString() // local time, as the field shows it
  it('writes German and English forms', () => {
    expect(toTyped(at, 'de')).toBe('06.12.2026 14:30')
    expect(toTyped(at, 'en')).toBe('2026-12-06 14:30')
  })
  it('reads both forms back, a date alone as midnight, and refuses nonsense', () => {
    expect(fromTyped('06.12.2026 14:30')).toBe(at)
    expect(fromTyped('6.12.2026, 14:30')).toBe(at)
    expect(fromTyped('2026-12-06 14:30')).toBe(at)
    expect(fromTyped('2026-12-06')).toBe(new Date(2026, 11, 6).toISOString())
    expect(fromTyped('31.02.2026')).toBeNull()
    expect(fromTyped('12/06/2026')).toBeNull()
    expect(fromTyped('06.12.2026 25:00')).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { formatPeriod, fromLocalInput, instantQuery, parseInstant, shiftDays } from './instant'

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

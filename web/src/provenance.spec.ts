import { describe, expect, it } from 'vitest'
import { confidenceDots, isHypothesis, isPolicy, lifecycle, lifecycleBadge, showValue, sourceIcon } from './provenance'

describe('provenance', () => {
  it('shows the source as 👤 / 🤖 / 🔌', () => {
    expect(sourceIcon('user')).toBe('👤')
    expect(sourceIcon('agent')).toBe('🤖')
    expect(sourceIcon('integration:github')).toBe('🔌')
  })
  it('renders confidence as four dots', () => {
    expect(confidenceDots(1)).toBe('●●●●')
    expect(confidenceDots(0.75)).toBe('●●●○')
    expect(confidenceDots(0.3)).toBe('●○○○')
    expect(confidenceDots(0)).toBe('○○○○')
  })
  it('maps status to a lifecycle badge', () => {
    expect(lifecycleBadge(lifecycle('active'))).toBe('🟢')
    expect(lifecycleBadge(lifecycle('pending'))).toBe('🟡')
    expect(lifecycleBadge(lifecycle('superseded', '2024-01-01T00:00:00Z'))).toBe('⚪')
    expect(lifecycle('active', '2024-01-01T00:00:00Z')).toBe('closed')
  })
  it('dims pending facts and weak guesses as hypotheses', () => {
    expect(isHypothesis({ status: 'pending', confidence: 1 })).toBe(true)
    expect(isHypothesis({ status: 'active', confidence: 0.3 })).toBe(true)
    expect(isHypothesis({ status: 'active', confidence: 0.75 })).toBe(false)
  })
  it('knows policies and renders values', () => {
    expect(isPolicy('policy')).toBe(true)
    expect(isPolicy('pet', 'rule')).toBe(true)
    expect(isPolicy('pet', 'feeding_time')).toBe(false)
    expect(showValue('08:00')).toBe('08:00')
    expect(showValue({ a: 1 })).toBe('{"a":1}')
    expect(showValue(null, 'pet:luna')).toBe('pet:luna')
  })
})

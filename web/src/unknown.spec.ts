import { describe, expect, it } from 'vitest'
import { unknownRef } from './unknown'

const err = (message: string, code = 'UNKNOWN_REF') => ({ graphQLErrors: [{ message, extensions: { code } }] })

describe('unknownRef', () => {
  it('reads the ref and the suggestions of the server message', () => {
    expect(unknownRef(err('no entity "pet:lunaa"; did you mean pet:luna, person:basti?')))
      .toEqual({ ref: 'pet:lunaa', suggestions: ['pet:luna', 'person:basti'] })
    expect(unknownRef(err('no entity "x:y"'))).toEqual({ ref: 'x:y', suggestions: [] })
  })
  it('reads when an entity unknown at an instant was first recorded', () => {
    expect(unknownRef(err('no entity "person:ann" as known on 2025-12-31: it was first recorded on 2026-01-01')))
      .toEqual({ ref: 'person:ann', suggestions: [], recordedLater: { at: '2025-12-31', first: '2026-01-01' } })
  })
  it('is null for any other error', () => {
    expect(unknownRef(err('boom', 'INTERNAL'))).toBeNull()
    expect(unknownRef(null)).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { COMMIT_LSN, READ_AFTER, laterLsn, readAfterFetch } from './readafter'

describe('read-after', () => {
  it('keeps the later WAL position, comparing them as numbers', () => {
    expect(laterLsn(null, '0/10')).toBe('0/10')
    expect(laterLsn('0/10', '0/F')).toBe('0/10')
    expect(laterLsn('0/FFFFFFFF', '1/0')).toBe('1/0')
    expect(laterLsn('0/10', null)).toBe('0/10')
    expect(laterLsn('0/10', 'junk')).toBe('0/10')
  })

  it('sends the last commit back with the next requests', async () => {
    const sent: (string | null)[] = []
    const answers = ['5/A600E420', null, null]
    const base = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(new Headers(init?.headers).get(READ_AFTER))
      const lsn = answers.shift() ?? null
      return new Response('{}', { headers: lsn ? { [COMMIT_LSN]: lsn } : {} })
    }) as typeof fetch
    const wrapped = readAfterFetch(base)
    for (let i = 0; i < 3; i++) await wrapped('/graphql', { headers: { Authorization: 'Bearer x' } })
    expect(sent).toEqual([null, '5/A600E420', '5/A600E420'])
  })
})

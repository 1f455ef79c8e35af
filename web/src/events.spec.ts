import { describe, expect, it } from 'vitest'
import { causeTree } from './events'

describe('causeTree', () => {
  it('nests effects under their cause, newest root first, effects oldest first', () => {
    const events = [
      { id: 'tool', causedByEventId: 'msg', occurredAt: '2026-11-29T00:00:00Z' },
      { id: 'change', causedByEventId: 'msg', occurredAt: '2026-11-27T00:00:01Z' },
      { id: 'msg', causedByEventId: null, occurredAt: '2026-11-27T00:00:00Z' },
      { id: 'sync', causedByEventId: 'elsewhere', occurredAt: '2026-11-28T00:00:00Z' },
      { id: 'follow', causedByEventId: 'tool', occurredAt: '2026-11-30T00:00:00Z' },
    ]
    const tree = causeTree(events)
    expect(tree.map((n) => n.event.id)).toEqual(['sync', 'msg'])
    expect(tree[1].effects.map((e) => e.id)).toEqual(['change', 'tool', 'follow'])
    expect(tree[0].effects).toEqual([])
  })
})

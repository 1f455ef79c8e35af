import { describe, expect, it } from 'vitest'
import { layout } from './layout'

describe('layout', () => {
  it('places causes left of their effects and gives every node a position', () => {
    const p = layout([{ id: 'a' }, { id: 'b' }, { id: 'c' }], [{ source: 'a', target: 'b' }, { source: 'b', target: 'c' }])
    expect(Object.keys(p).sort()).toEqual(['a', 'b', 'c'])
    expect(p.a.x).toBeLessThan(p.b.x)
    expect(p.b.x).toBeLessThan(p.c.x)
  })
  it('ignores edges to unknown nodes', () => {
    const p = layout([{ id: 'a' }], [{ source: 'a', target: 'zzz' }], 'TB')
    expect(Object.keys(p)).toEqual(['a'])
  })
})

// German and English are complete: the same keys, and every key the code uses exists in both.
import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import de from './locales/de'
import en from './locales/en'

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]))
}
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    if (statSync(p).isDirectory()) return f === 'gql' ? [] : files(p)
    return /\.(vue|ts)$/.test(f) && !f.endsWith('.spec.ts') ? [p] : []
  })
}
// Keys built at run time: t(`lifecycle.${...}`), t(`source.${...}`), t(`trace.${outcome}`)
const DYNAMIC = ['lifecycle.active', 'lifecycle.pending', 'lifecycle.closed', 'source.user', 'source.agent',
  'source.integration', 'trace.fulfilled', 'trace.partial', 'trace.unfulfilled', 'trace.unknown']

describe('i18n', () => {
  const deKeys = keys(de).sort()
  const enKeys = keys(en).sort()
  it('has the same keys in German and English', () => {
    expect(enKeys).toEqual(deKeys)
    for (const k of deKeys) expect(k.split('.').reduce((o: any, p) => o[p], en), k).not.toBe('')
  })
  it('has every key the code uses', () => {
    const used = new Set<string>(DYNAMIC)
    for (const f of files(__dirname)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\bt\('([a-zA-Z]+\.[a-zA-Z.]+)'/g)) used.add(m[1])
    }
    expect(used.size).toBeGreaterThan(60)
    const missing = [...used].filter((k) => !deKeys.includes(k) || !enKeys.includes(k))
    expect(missing).toEqual([])
  })
})

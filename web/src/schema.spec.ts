// Every document of the explorer is valid against the server's exported schema (the build checks the same
// through graphql-codegen); a field the server drops makes this fail.
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildSchema, validate, type DocumentNode } from 'graphql'
import * as queries from './queries'

const sdl = readFileSync(join(__dirname, '..', '..', 'schema.graphql'), 'utf8')
// Fragment documents are checked inside the operations that spread them.
const documents = (Object.entries(queries) as [string, DocumentNode][])
  .filter(([, doc]) => doc.definitions.some((d) => d.kind === 'OperationDefinition'))

function errors(schemaText: string): string[] {
  const schema = buildSchema(schemaText)
  return documents.flatMap(([name, doc]) => validate(schema, doc).map((e) => `${name}: ${e.message}`))
}

describe('the explorer against schema.graphql', () => {
  it('has only valid documents', () => {
    expect(documents.length).toBeGreaterThan(10)
    expect(errors(sdl)).toEqual([])
  })
  it('fails when the server drops a field the explorer reads', () => {
    const broken = sdl.replace(/^(\s*)entityEvents\(/m, '$1entityEventsRenamed(')
    expect(broken).not.toEqual(sdl)
    expect(errors(broken).join('\n')).toMatch(/entityEvents/)
  })
})

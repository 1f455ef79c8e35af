// How a search hit matched (EntityMatch.via: ref | name | alias | name in query | alias in query | similar name |
// similar alias | owner | text | finder), as a locale key; anything new falls back to a generic label.
const KNOWN: Record<string, string> = {
  ref: 'ref', name: 'name', alias: 'alias', 'name in query': 'nameInQuery', 'alias in query': 'aliasInQuery',
  'similar name': 'similarName', 'similar alias': 'similarAlias', owner: 'owner', text: 'text', finder: 'finder',
}

export function viaKey(via: string): string {
  return `via.${KNOWN[via] ?? 'other'}`
}

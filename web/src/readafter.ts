// Read-your-writes with read replicas (docs/operations/replicas.md): a server with standbys answers a commit with
// its WAL position in Worldmem-Commit-LSN; sent back as Worldmem-Read-After, every later read sees that commit,
// whichever server process answers it.
export const COMMIT_LSN = 'Worldmem-Commit-LSN'
export const READ_AFTER = 'Worldmem-Read-After'

function position(lsn: string | null): bigint {
  const found = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn ?? '')
  return found ? (BigInt(`0x${found[1]}`) << 32n) | BigInt(`0x${found[2]}`) : -1n
}

// The later of two WAL positions (`X/Y` hex); a missing or malformed new one keeps the old.
export function laterLsn(seen: string | null, answered: string | null): string | null {
  return position(answered) > position(seen) ? answered : seen
}

// `base` (the browser's fetch) sending the last commit's position back with every request.
export function readAfterFetch(base: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  let seen: string | null = null
  return async (input, init) => {
    const headers = new Headers(init?.headers)
    if (seen !== null) headers.set(READ_AFTER, seen)
    const response = await base(input, { ...init, headers })
    seen = laterLsn(seen, response.headers.get(COMMIT_LSN))
    return response
  }
}

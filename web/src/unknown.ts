// An unknown ref as the server words it (UNKNOWN_REF: `no entity "x"; did you mean a, b?`), read into its parts so
// the explorer can show the suggestions as links instead of the raw GraphQL error.

export interface UnknownRef {
  ref: string
  suggestions: string[]
  // Set when the ref was asked as known at a system time before the entity was recorded (YYYY-MM-DD each).
  recordedLater?: { at: string; first: string }
}

interface ErrorLike {
  graphQLErrors?: { message: string; extensions?: Record<string, unknown> }[]
}

const WORDING = /^no entity "(.*)"(?:; did you mean (.*)\?)?$/
const LATER = /^no entity "(.*)" as known on (\S+): it was first recorded on (\S+)$/

export function unknownRef(error: ErrorLike | null | undefined): UnknownRef | null {
  const first = error?.graphQLErrors?.find((e) => e.extensions?.code === 'UNKNOWN_REF' || e.extensions?.code === 'UNKNOWN_ENTITY')
  if (!first) return null
  const later = LATER.exec(first.message)
  if (later) return { ref: later[1], suggestions: [], recordedLater: { at: later[2], first: later[3] } }
  const m = WORDING.exec(first.message)
  if (!m) return { ref: '', suggestions: [] }
  return { ref: m[1], suggestions: m[2] ? m[2].split(', ').filter(Boolean) : [] }
}

// Events grouped under their cause for the timeline; pure, tested in events.spec.ts.

export interface EventLike { id: string; causedByEventId?: string | null; occurredAt: string }
export interface CauseNode<E extends EventLike> { event: E; effects: E[] }

/** Roots are events whose cause is not in the list; each lists the events it caused, oldest first. */
export function causeTree<E extends EventLike>(events: E[]): CauseNode<E>[] {
  const ids = new Set(events.map((e) => e.id))
  const effects = new Map<string, E[]>()
  for (const e of events) {
    if (e.causedByEventId && ids.has(e.causedByEventId)) {
      effects.set(e.causedByEventId, [...(effects.get(e.causedByEventId) ?? []), e])
    }
  }
  const roots = events.filter((e) => !e.causedByEventId || !ids.has(e.causedByEventId))
  const byTime = (a: E, b: E) => a.occurredAt.localeCompare(b.occurredAt)
  return roots
    .sort((a, b) => byTime(b, a))
    .map((event) => ({ event, effects: flatten(event.id, effects).sort(byTime) }))
}

function flatten<E extends EventLike>(id: string, effects: Map<string, E[]>, seen = new Set<string>()): E[] {
  const out: E[] = []
  for (const e of effects.get(id) ?? []) {
    if (seen.has(e.id)) continue
    seen.add(e.id)
    out.push(e, ...flatten(e.id, effects, seen))
  }
  return out
}

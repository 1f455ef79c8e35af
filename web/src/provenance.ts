// How a fact's provenance is shown: pure functions, tested in provenance.spec.ts.

export type Lifecycle = 'active' | 'pending' | 'closed'

export function sourceIcon(source: string): string {
  if (source === 'user') return '👤'
  if (source.startsWith('integration')) return '🔌'
  return '🤖'
}

export function sourceKind(source: string): 'user' | 'integration' | 'agent' {
  if (source === 'user') return 'user'
  if (source.startsWith('integration')) return 'integration'
  return 'agent'
}

/** Four dots, filled by confidence (0..1), as in the agent's provenance suffix. */
export function confidenceDots(confidence: number): string {
  const filled = Math.max(0, Math.min(4, Math.round(confidence * 4)))
  return '●'.repeat(filled) + '○'.repeat(4 - filled)
}

export function lifecycle(status: string, supersededAt?: string | null): Lifecycle {
  if (status === 'active' && !supersededAt) return 'active'
  if (status === 'pending' || status === 'proposed') return 'pending'
  return 'closed'
}

export function lifecycleBadge(l: Lifecycle): string {
  return l === 'active' ? '🟢' : l === 'pending' ? '🟡' : '⚪'
}

/** A belief the store does not hold as certain: pending, or an agent's guess below 0.5. */
export function isHypothesis(f: { status: string; confidence: number; supersededAt?: string | null }): boolean {
  return lifecycle(f.status, f.supersededAt) === 'pending' || f.confidence < 0.5
}

export function isPolicy(kind: string, predicate?: string, memoryType?: string | null): boolean {
  return kind === 'policy' || predicate === 'rule' || memoryType === 'policy'
}

export function showValue(value: unknown, objectRef?: string | null): string {
  if (objectRef) return objectRef
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}

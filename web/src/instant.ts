// The as-of instant carried in the URL (?at=...&axis=valid|system): parsing and formatting, pure.

export type Axis = 'valid' | 'system'

export interface Instant {
  at: string | null // ISO 8601 UTC; null = now
  axis: Axis
}

export function parseInstant(query: Record<string, unknown>): Instant {
  const raw = typeof query.at === 'string' ? query.at : null
  const at = raw && !Number.isNaN(Date.parse(raw)) ? new Date(raw).toISOString() : null
  return { at, axis: query.axis === 'system' ? 'system' : 'valid' }
}

export function instantQuery(i: Instant): Record<string, string> {
  const q: Record<string, string> = {}
  if (i.at) q.at = i.at
  if (i.axis === 'system') q.axis = 'system'
  return q
}

/** The value of an <input type="datetime-local"> (local time) for an ISO instant. */
export function toLocalInput(iso: string | null, now: Date = new Date()): string {
  const d = iso ? new Date(iso) : now
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

export function fromLocalInput(value: string): string | null {
  const t = Date.parse(value)
  return Number.isNaN(t) ? null : new Date(t).toISOString()
}

export function shiftDays(iso: string | null, days: number, now: Date = new Date()): string {
  const base = iso ? new Date(iso) : now
  return new Date(base.getTime() + days * 86_400_000).toISOString()
}

/** The formatting locale of the explorer's language: German as in Germany, English as in Britain. */
function bcp47(locale: string): string {
  return locale === 'de' ? 'de-DE' : 'en-GB'
}

export function formatDate(iso: string | null | undefined, locale: string): string {
  if (!iso) return '—'
  return new Date(iso).toLocaleDateString(bcp47(locale), {
    year: 'numeric', month: 'short', day: 'numeric',
  })
}

export function formatDateTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '—'
  return new Date(iso).toLocaleString(bcp47(locale), {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit',
  })
}

/** A UTC month (a date of its first day, "2025-03-01") as "March 2025" / "März 2025". */
export function formatMonth(day: string, locale: string): string {
  return new Date(`${day.slice(0, 10)}T00:00:00Z`).toLocaleDateString(bcp47(locale), {
    year: 'numeric', month: 'long', timeZone: 'UTC',
  })
}

/** A half-open period: "from – to", an open end as "…". */
export function formatPeriod(from: string | null | undefined, to: string | null | undefined, locale: string): string {
  return `${formatDate(from, locale)} – ${to ? formatDate(to, locale) : '…'}`
}

/** The instant as the explorer's language writes it, in local time: "06.12.2026 14:30" (de) or
 * "2026-12-06 14:30" (en). The time bar uses a text field in this form instead of the browser's date picker,
 * which follows the browser's locale, not the app's language. */
export function toTyped(iso: string | null, locale: string, now: Date = new Date()): string {
  const d = iso ? new Date(iso) : now
  const pad = (n: number) => String(n).padStart(2, '0')
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`
  return locale === 'de'
    ? `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${time}`
    : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`
}

const GERMAN = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2}))?$/
const ISO_LIKE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?$/

/** A typed instant in either form (a date alone is local midnight) as ISO UTC, or null when it is not one. */
export function fromTyped(value: string): string | null {
  const text = value.trim()
  const de = GERMAN.exec(text)
  const iso = ISO_LIKE.exec(text)
  const parts = de ? [de[3], de[2], de[1], de[4], de[5]] : iso ? [iso[1], iso[2], iso[3], iso[4], iso[5]] : null
  if (!parts) return null
  const [y, mo, d, h, mi] = parts.map((p) => Number(p ?? 0))
  const at = new Date(y, mo - 1, d, h, mi)
  const real = at.getFullYear() === y && at.getMonth() === mo - 1 && at.getDate() === d && h < 24 && mi < 60
  return real ? at.toISOString() : null
}

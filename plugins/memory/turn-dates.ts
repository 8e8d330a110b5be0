// When a turn's relative dates happened. "I went to a support group yesterday", said on
// 8 May 2023, is about 7 May 2023: resolved at store time against the turn's own date (as
// Mem0 v3 does), so a question about "May 2023" or "7 May" finds it later, when "yesterday"
// means another day. The turn's own date is a date stamp opening its text when it has one
// (`[8 May 2023] Caroline: ...`, as transcripts and imported conversations are written and
// as the LoCoMo protocol sends them through chat), else the time it was stored with (the
// write API's `timestamp`, or now). The resolved dates join the turn's keyword context
// (`NewTurn.context`); the text itself is never changed. compromise-dates reads the
// expressions; it is loaded on the first turn that has one (a cheap test goes first).
import type nlpType from 'compromise'

const RELATIVE = /\b(yesterday|tomorrow|tonight|ago|last|next|this (?:week|weekend|month|year|summer|winter|spring|fall|autumn|morning|evening)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/i
const STAMP = /^\s*\[([^\]]{6,60})\]/
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const DAY_MS = 86_400_000

type Nlp = typeof nlpType
interface DatesView { json: () => Array<{ dates?: { start?: string | null, end?: string | null } }> }
type WithDates = (doc: ReturnType<Nlp>, opts: { today: string, timezone: string }) => DatesView

let loading: Promise<Nlp> | undefined
async function nlp (): Promise<Nlp> {
  loading ??= Promise.all([import('compromise'), import('compromise-dates')]).then(([c, d]) => { c.default.plugin(d.default); return c.default })
  return await loading
}
const datesOf: WithDates = (doc, opts) => (doc as unknown as { dates: (o: typeof opts) => DatesView }).dates(opts)

/** A stamp's date ("1:56 pm on 8 May, 2023"): the day it names, or undefined. */
function stampDate (n: Nlp, stamp: string): Date | undefined {
  const start = datesOf(n(stamp), { today: '2000-01-01', timezone: 'UTC' }).json()[0]?.dates?.start
  const d = start == null ? undefined : new Date(start)
  return d === undefined || Number.isNaN(d.getTime()) ? undefined : d
}

/** A span as words: "7 May 2023" for one day, "May 2023" (or "April May 2023") for a week or a month, "2022" for a year. */
export function spanWords (start: Date, end: Date): string {
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS)
  const y1 = start.getUTCFullYear(); const y2 = end.getUTCFullYear()
  if (days <= 1) return `${start.getUTCDate()} ${MONTHS[start.getUTCMonth()]} ${y1}`
  if (days > 40) return y1 === y2 ? `${y1}` : `${y1} ${y2}`
  const m1 = MONTHS[start.getUTCMonth()]; const m2 = MONTHS[end.getUTCMonth()]
  if (m1 === m2) return `${m1} ${y1}`
  return y1 === y2 ? `${m1} ${m2} ${y1}` : `${m1} ${y1} ${m2} ${y2}`
}

/**
 * The dates a turn's relative expressions point to, as words ("7 May 2023"), or undefined
 * when it has none. `timestamp` is the turn's stored time, used when its text has no stamp.
 */
export async function resolvedDates (content: string, timestamp: string | undefined): Promise<string | undefined> {
  const stamp = STAMP.exec(content)
  const text = stamp === null ? content : content.slice(stamp[0].length)
  if (!RELATIVE.test(text)) return undefined
  const n = await nlp()
  const today = (stamp === null ? undefined : stampDate(n, stamp[1])) ?? new Date(timestamp ?? Date.now())
  if (Number.isNaN(today.getTime())) return undefined
  const words = new Set<string>()
  for (const d of datesOf(n(text), { today: today.toISOString().slice(0, 10), timezone: 'UTC' }).json()) {
    const { start, end } = d.dates ?? {}
    if (start == null || end == null) continue
    const [s, e] = [new Date(start), new Date(end)]
    if (!Number.isNaN(s.getTime()) && !Number.isNaN(e.getTime())) words.add(spanWords(s, e))
  }
  return words.size === 0 ? undefined : [...words].join(' ')
}

// When a turn happened, and when what it tells of happened, as words a keyword index can
// match. "I went to a support group yesterday", said on 8 May 2023, is about 7 May 2023:
// resolved at store time against the turn's own date (as Mem0 v3 does), so a question
// about "7 May 2023" or "May 2023" finds it later, when "yesterday" means another day.
// A date is written as digits that no sentence says: a day as `20230507`, a month as
// `202305`, a year as `2023`, so a question naming the day or the month matches the turns
// of that day or month and nothing else. The turn's own date is a date stamp opening its
// text when it has one (`[1:56 pm on 8 May, 2023] Caroline: ...`, as transcripts and
// imported conversations are written, and as the LoCoMo protocol sends them through chat),
// else the time it was stored with. chrono-node's English parser reads the expressions
// (~0.25 s to load, its every language ~1.5 s; well under a millisecond a sentence after):
// loaded on the first text that looks like it holds a date (a cheap test goes first),
// never at a server's start.
import type * as ChronoModule from 'chrono-node/en'

type Chrono = typeof ChronoModule
type Unit = 'day' | 'week' | 'month' | 'year'

let loading: Promise<Chrono> | undefined
const chrono = async (): Promise<Chrono> => await (loading ??= import('chrono-node/en'))

const STAMP = /^\s*\[([^\]]{6,60})\]/
const WEEKDAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)day'
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)'
/**
 * Words without which chrono-node finds no date worth keeping: a cheap test before loading
 * and running it (every chat's recall and stored turn passes here). "this", "last" or "may"
 * alone are not enough: "May" counts capitalised or beside a number.
 */
const DATE_WORDS = new RegExp(`\\b(yesterday|today|tonight|tomorrow|weekend|ago|(last|next|this|past) (week|month|year|night|morning|afternoon|evening|summer|winter|spring|fall|autumn|${WEEKDAY})|${WEEKDAY}|${MONTH}|(19|20)\\d\\d)\\b`, 'i')
const MAY = /\bMay\b/
const MAY_NUMBERED = /\bmay \d|\d(st|nd|rd|th)? may\b/i
const mayHoldDate = (text: string): boolean => DATE_WORDS.test(text) || MAY.test(text) || MAY_NUMBERED.test(text)
const DAY_MS = 86_400_000

const pad = (n: number, w = 2): string => String(n).padStart(w, '0')
export const yearToken = (d: Date): string => String(d.getUTCFullYear())
export const monthToken = (d: Date): string => `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}`
export const dayToken = (d: Date): string => `${monthToken(d)}${pad(d.getUTCDate())}`

/** The days of the week (Monday to Sunday) that holds `d`. */
function weekOf (d: Date): Date[] {
  const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY_MS
  return Array.from({ length: 7 }, (_, i) => new Date(monday + i * DAY_MS))
}

/** A turn's tokens for a span: a day its day, month and year; a week each of its days; a month its month; a year its year. */
export function spanTokens (start: Date, unit: Unit): string[] {
  const days = unit === 'day' ? [start] : unit === 'week' ? weekOf(start) : []
  const months = unit === 'year' ? [] : unit === 'month' ? [start] : days
  return [...new Set([...days.map(dayToken), ...months.map(monthToken), ...(unit === 'year' ? [start] : days).map(yearToken)])]
}

/** How precise an expression is ("last year" a year, "2 weeks ago" a week), or undefined when it names no date (a time alone, a duration, a habit). */
function unitOf (r: ChronoModule.ParsedResult, source: string): Unit | undefined {
  const text = r.text.toLowerCase()
  if (/^(for|every|each)\b/.test(text) || /\b(every|each)\s+$/i.test(source.slice(Math.max(0, r.index - 8), r.index))) return undefined
  const known = (k: ChronoModule.Component): boolean => r.start.isCertain(k)
  if (/\bweek(end)?s?\b/.test(text)) return 'week'
  if (known('day') || known('weekday')) return 'day'
  if (known('month') || /\bmonths?\b/.test(text)) return 'month'
  if (known('year')) return 'year'
  return undefined
}

/** The dates a text names, resolved against `ref`, each with how precise it is. */
async function datesIn (text: string, ref: Date): Promise<Array<{ start: Date, unit: Unit }>> {
  if (!mayHoldDate(text)) return []
  const c = await chrono()
  const out: Array<{ start: Date, unit: Unit }> = []
  for (const r of c.parse(text, { instant: ref, timezone: 0 }, { forwardDate: false })) {
    const unit = unitOf(r, text)
    const start = r.start.date()
    if (unit !== undefined && !Number.isNaN(start.getTime())) out.push({ start, unit })
  }
  return out
}

/**
 * A turn's date words: its own date (its opening stamp's, else `timestamp`, else now) and
 * the dates its relative expressions point to, resolved against that date. Undefined when
 * none can be read (a stamp or timestamp that is no date).
 */
export async function turnDateWords (content: string, timestamp?: string): Promise<string | undefined> {
  const stamp = STAMP.exec(content)
  const stamped = stamp === null ? undefined : (await datesIn(stamp[1], new Date(timestamp ?? Date.now()))).find(d => d.unit === 'day')?.start
  const own = stamped ?? new Date(timestamp ?? Date.now())
  if (Number.isNaN(own.getTime())) return undefined
  const text = stamp === null ? content : content.slice(stamp[0].length)
  const tokens = new Set(spanTokens(own, 'day'))
  for (const d of await datesIn(text, own)) for (const t of spanTokens(d.start, d.unit)) tokens.add(t)
  return [...tokens].join(' ')
}

/**
 * The date words a query's keyword search adds for the times it names ("in May 2023" the
 * month, "on 7 May 2023" the day; a relative one, "last month", against `now`): one token
 * for each, at the query's own precision (a week as its month, a year as the year it
 * already says). Empty when it names none.
 */
export async function queryDateWords (query: string, now: Date = new Date()): Promise<string[]> {
  // One recall reads the same query in each of its keyword searches and in the time technique.
  const day = dayToken(now)
  if (last?.query === query && last.day === day) return await last.words
  const words = readQueryDates(query, now)
  last = { query, day, words }
  return await words
}

let last: { query: string, day: string, words: Promise<string[]> } | undefined

async function readQueryDates (query: string, now: Date): Promise<string[]> {
  const out = new Set<string>()
  for (const d of await datesIn(query, now)) {
    if (d.unit === 'day') out.add(dayToken(d.start))
    else if (d.unit === 'week' || d.unit === 'month') out.add(monthToken(d.start))
    else out.add(yearToken(d.start))
  }
  return [...out]
}

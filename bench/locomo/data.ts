// LoCoMo's development split, read from `../shared/data/locomo-dev/` beside the repository
// (CC BY-NC 4.0: it is never copied into the repository). The benches that use it
// (locomo-recall, locomo-extraction) say so and stop when it is missing; no test needs it.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
export const LOCOMO_DEV = path.resolve(REPO, '../shared/data/locomo-dev/locomo-dev.json')

export interface LocomoTurn {
  conv: string
  session: number
  /** The session's date as LoCoMo writes it ("1:56 pm on 8 May, 2023"). */
  date: string
  /** The same, ISO 8601 (UTC), turns of a session a second apart so their order is kept. */
  timestamp: string
  speaker: string
  dia: string
  text: string
  /** The held-out protocol's chat message: `[<session date>] <speaker>: <text>`. */
  message: string
}
export interface LocomoQuestion { conv: string, category: number, question: string, evidence: string[] }
export interface LocomoObservation { conv: string, speaker: string, text: string, dia: string }
export interface Locomo { turns: LocomoTurn[], questions: LocomoQuestion[], observations: LocomoObservation[], convs: string[] }

interface RawTurn { speaker: string, dia_id: string, text: string }
interface RawConv {
  sample_id: string
  conversation: Record<string, string | RawTurn[]>
  qa: Array<{ question: string, category: number, evidence?: string[] }>
  observation?: Record<string, Record<string, Array<[string, string | string[]]>>>
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** "1:56 pm on 8 May, 2023" -> a Date (UTC). */
export function parseLocomoDate (s: string): Date {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(s.trim())
  if (m === null) throw new Error(`LoCoMo: cannot read the date "${s}"`)
  const month = MONTHS.indexOf(m[5].toLowerCase())
  if (month < 0) throw new Error(`LoCoMo: no month in "${s}"`)
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0)
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])))
}

/** Evidence ids as written, some joined by ";" or spaces ("D8:6; D9:17"). */
const ids = (xs: string[] | undefined): string[] => (xs ?? []).flatMap(x => x.split(/[;,\s]+/)).map(x => x.trim()).filter(x => /^D\d+:\d+$/.test(x))

export function loadLocomo (file = LOCOMO_DEV): Locomo | undefined {
  if (!existsSync(file)) return undefined
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RawConv[]
  const turns: LocomoTurn[] = []
  const questions: LocomoQuestion[] = []
  const observations: LocomoObservation[] = []
  for (const c of raw) {
    const conv = c.sample_id
    for (let n = 1; Array.isArray(c.conversation[`session_${n}`]) || c.conversation[`session_${n}_date_time`] !== undefined; n++) {
      const list = c.conversation[`session_${n}`]
      const date = c.conversation[`session_${n}_date_time`]
      if (!Array.isArray(list) || typeof date !== 'string') continue
      const start = parseLocomoDate(date).getTime()
      list.forEach((t, i) => {
        turns.push({ conv, session: n, date, timestamp: new Date(start + i * 1000).toISOString(), speaker: t.speaker, dia: t.dia_id, text: t.text, message: `[${date}] ${t.speaker}: ${t.text}` })
      })
    }
    for (const q of c.qa) questions.push({ conv, category: q.category, question: q.question, evidence: ids(q.evidence) })
    for (const session of Object.values(c.observation ?? {})) {
      for (const [speaker, list] of Object.entries(session)) {
        for (const [text, dia] of list) for (const d of ids(Array.isArray(dia) ? dia : [dia])) observations.push({ conv, speaker, text, dia: d })
      }
    }
  }
  return { turns, questions, observations, convs: raw.map(c => c.sample_id) }
}

/** Loads the set or says why not and ends the process (exit code 0: a missing licence-bound file is no failure). */
export function loadLocomoOrExit (): Locomo {
  const set = loadLocomo()
  if (set === undefined) {
    console.log(`LoCoMo dev set not found at ${LOCOMO_DEV} (it is read from ../shared/data/locomo-dev/ beside the repository and never copied into it); nothing measured.`)
    process.exit(0)
  }
  return set
}

// Reading an export file back (POST /api/memory/import): every line is parsed and checked,
// and the references between items too, before anything is written, so a bad file is a
// 400 naming each bad line by its number and leaves the stores untouched.
import { check, type ErrorDetail } from '@agentd/sdk'
import { FORMAT, Header, LINE_SCHEMAS, VERSION, emptyDoc, type ItemKind, type TransferDoc } from './transfer-format.ts'
import { MemoryErrors } from './errors.ts'
import { withDetails } from '@agentd/sdk'

/** Bad lines listed at most; the message says how many there were. */
const MAX_DETAILS = 20

const KEY: Record<ItemKind, keyof TransferDoc> = {
  channel: 'channels', conversation: 'conversations', turn: 'turns', entity: 'entities',
  relationship: 'relationships', fact: 'facts', goal: 'goals', strategy: 'strategies',
}

/** Parses and checks a whole export file; throws 400 (with every bad line in `details`) or 413. */
export function readTransfer (text: string, maxText: number): TransferDoc {
  const doc = emptyDoc()
  const errors: ErrorDetail[] = []
  const bad = (line: number, message: string): void => { errors.push({ path: `line ${line}`, message }) }
  let header = false
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim()
    if (raw === '') continue
    const n = i + 1
    let value: unknown
    try { value = JSON.parse(raw) } catch (err) { bad(n, `not JSON: ${(err as Error).message}`); continue }
    if (!header) {
      header = true
      const h = check(Header, value)
      if (!h.ok) { bad(n, `the first line must be the header {"kind":"header","format":"${FORMAT}","version":${VERSION}} (${h.errors.map(e => `${e.path}: ${e.message}`).join('; ')})`); break }
      if (h.value.version > VERSION) { bad(n, `the file is format version ${h.value.version}, written by a newer agentd; this server reads version ${VERSION}`); break }
      continue
    }
    const kind = (value as { kind?: unknown } | null)?.kind
    if (typeof kind !== 'string' || !(kind in LINE_SCHEMAS)) { bad(n, `"kind" must be one of ${Object.keys(LINE_SCHEMAS).join(', ')}`); continue }
    const r = check(LINE_SCHEMAS[kind as ItemKind], value)
    if (!r.ok) { for (const e of r.errors) bad(n, `${kind} ${e.path}: ${e.message}`); continue }
    const content = (r.value as { content?: string }).content
    if (content !== undefined && content.length > maxText) throw new MemoryErrors.TEXT_TOO_LONG(`line ${n}: the turn's content`, content.length, maxText)
    ;(doc[KEY[kind as ItemKind]] as unknown[]).push({ ...(r.value as object), line: n })
  }
  if (!header) errors.push({ path: 'line 1', message: 'the file is empty: an export starts with its header line' })
  if (errors.length === 0) checkReferences(doc, bad)
  if (errors.length > 0) {
    const shown = errors.slice(0, MAX_DETAILS)
    const more = errors.length > shown.length ? ` (${errors.length} problems; the first ${shown.length} are listed)` : ''
    throw withDetails(new MemoryErrors.BAD_REQUEST(`The import file is not a valid agentd memory export, nothing was imported${more}: ${shown.map(e => `${e.path}: ${e.message}`).join('; ')}`), shown)
  }
  return doc
}

/** Ids unique per kind, supersession and goal parents without cycles. References to items outside the file are allowed (dropped on import when the store lacks them). */
function checkReferences (doc: TransferDoc, bad: (line: number, message: string) => void): void {
  for (const key of ['conversations', 'turns', 'entities', 'facts', 'goals', 'strategies'] as const) {
    const seen = new Map<string, number>()
    for (const item of doc[key] as Array<{ id: string, line: number }>) {
      const first = seen.get(item.id)
      if (first !== undefined) bad(item.line, `id "${item.id}" is already used on line ${first}`)
      else seen.set(item.id, item.line)
    }
  }
  const supersedes = new Map(doc.facts.map(f => [f.id, f.supersedes_id ?? null]))
  for (const f of doc.facts) if (cycles(f.id, supersedes)) bad(f.line, `fact "${f.id}": its supersedes_id chain comes back to itself`)
  const parents = new Map(doc.goals.map(g => [g.id, g.parent_goal_id ?? null]))
  for (const g of doc.goals) if (cycles(g.id, parents)) bad(g.line, `goal "${g.id}": its parent_goal_id chain comes back to itself`)
}

function cycles (start: string, next: Map<string, string | null>): boolean {
  const seen = new Set<string>([start])
  let at = next.get(start) ?? null
  while (at !== null && next.has(at)) {
    if (seen.has(at)) return true
    seen.add(at)
    at = next.get(at) ?? null
  }
  return false
}

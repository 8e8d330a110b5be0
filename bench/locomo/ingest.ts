// Sending LoCoMo's conversations to an agentd through its API, and reading back what it
// made of them. Two ways in:
// - `chat` (the held-out protocol, data README): every turn a chat message
//   `[<session date>] <speaker>: <text>`, one chat session per LoCoMo session, the
//   conversation's channel, `use_memory: true`, the fake model answering "OK.";
// - `turns`: POST /api/memory/turns, each turn a user message with its speaker as `name`
//   and its session's date as `timestamp`, the text alone as content.
import { randomUUID } from 'node:crypto'
import { until } from '../../test/helpers/poll.ts'
import type { BenchServer } from '../recall-eval/server.ts'
import type { Locomo, LocomoTurn } from './data.ts'

export type IngestMode = 'chat' | 'turns'

export interface Ingested {
  /** Per conversation (= channel): stored content -> dia_id, and turn id -> dia_id. */
  diaByContent: Map<string, Map<string, string>>
  diaById: Map<string, string>
  seconds: number
  chats: number
}

const contentOf = (t: LocomoTurn, mode: IngestMode): string => mode === 'chat' ? t.message : t.text

/** Turns grouped by conversation and session, in order. */
function sessions (set: Locomo): LocomoTurn[][] {
  const by = new Map<string, LocomoTurn[]>()
  for (const t of set.turns) {
    const key = `${t.conv}/${t.session}`
    const list = by.get(key)
    if (list === undefined) by.set(key, [t])
    else list.push(t)
  }
  return [...by.values()]
}

async function ok (r: Response, what: string): Promise<unknown> {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${await r.text()}`)
  return await r.json()
}

export async function ingest (s: BenchServer, set: Locomo, mode: IngestMode): Promise<Ingested> {
  const conversations: string[] = []
  const t0 = performance.now()
  let chats = 0
  for (const session of sessions(set)) {
    const id = randomUUID()
    conversations.push(id)
    const channel = session[0].conv
    if (mode === 'chat') {
      for (const t of session) {
        await ok(await s.post('/api/agent/chat', { message: t.message, session_id: id, channel, use_memory: true }), 'chat')
        s.fake.requests.length = 0 // the fake keeps what it saw; only agentd is measured
        chats++
      }
    } else {
      for (let i = 0; i < session.length; i += 100) {
        const messages = session.slice(i, i + 100).map(t => ({ role: 'user', name: t.speaker, content: t.text, timestamp: t.timestamp }))
        await ok(await s.post('/api/memory/turns', { conversation_id: id, channel, messages }), 'turns')
      }
    }
  }
  const seconds = (performance.now() - t0) / 1000
  // A chat's turns are stored after its answer (off the request path): wait for the last.
  const want = mode === 'chat' ? 2 * set.turns.length : set.turns.length
  const stored = async (): Promise<number> => ((await (await fetch(`${s.base}/api/memory/stats`)).json()) as { totals: { turns: number } }).totals.turns
  await until('every turn stored', async () => await stored() >= want, 120_000)

  const diaByContent = new Map(set.convs.map(c => [c, new Map<string, string>()]))
  for (const t of set.turns) diaByContent.get(t.conv)?.set(contentOf(t, mode), t.dia)
  const diaById = new Map<string, string>()
  for (const id of conversations) {
    const body = await ok(await fetch(`${s.base}/api/memory/conversations/${id}/turns?limit=10000`), 'turns') as { turns: Array<{ id: string, content: string, channel: string }> }
    for (const t of body.turns) {
      const dia = diaByContent.get(t.channel)?.get(t.content)
      if (dia !== undefined) diaById.set(t.id, dia)
    }
  }
  return { diaByContent, diaById, seconds, chats }
}

export interface StoredFact { id: string, claim: string, source_turn_id: string | null, channel: string }

/**
 * Consolidates everything, offline extractor, until no conversation is left: a few
 * conversations a run, so each answer comes well within fetch's five-minute wait for headers.
 */
export async function consolidateAll (s: BenchServer): Promise<{ seconds: number, runs: Array<Record<string, unknown>> }> {
  await ok(await s.post('/api/memory/settings', { extraction_mode: 'offline', consolidation_batch_size: 4 }), 'settings')
  const t0 = performance.now()
  const runs: Array<Record<string, unknown>> = []
  for (;;) {
    const body = await ok(await s.post('/api/memory/consolidate', { jobs: ['consolidate'] }), 'consolidate') as { results: { consolidate: Record<string, unknown> } }
    const m = body.results.consolidate
    runs.push(m)
    if (Number(m.conversations ?? 0) === 0) break
  }
  return { seconds: (performance.now() - t0) / 1000, runs }
}

/** Every fact of a channel, superseded ones too (each was extracted). */
export async function allFacts (s: BenchServer, channel: string): Promise<StoredFact[]> {
  const out: StoredFact[] = []
  for (let page = 1; ; page++) {
    const body = await ok(await fetch(`${s.base}/api/memory/facts?channel=${channel}&include_superseded=true&limit=100&page=${page}`), 'facts') as { facts: StoredFact[], has_next: boolean }
    out.push(...body.facts)
    if (!body.has_next) return out
  }
}

// GET /api/memory/export: a channel (or every channel) as JSON Lines (transfer-format.ts),
// read through the store contracts page by page, so the file streams out without the
// whole memory in the process. Vectors are not exported: import embeds every item again
// with the embedder loaded there (another machine may use another one).
import type { GraphStore, RelationalStore } from '@agentd/sdk/contracts/memory-stores'
import type { MemoryServiceImpl } from './service.ts'
import { GRAPH_WALK_LIMIT } from '@agentd/sdk/kits/memory'
import { MemoryErrors } from './errors.ts'
import { FORMAT, VERSION } from './transfer-format.ts'

const PAGE = 500
/** More turns than any conversation holds: conversationTurns takes the last `limit`. */
const ALL_TURNS = 10_000_000

const out = (kind: string, item: object): string => `${JSON.stringify({ kind, ...item })}\n`

/** Checks what an export needs before the first byte goes out (a 404 or 503 can still be a plain error). */
export async function exportPlan (svc: MemoryServiceImpl, channel: string | undefined): Promise<{ channels: Array<{ name: string, created_at: string }>, rel: RelationalStore, graph: GraphStore }> {
  const rel = svc.ctx.need('relational')
  const graph = svc.ctx.need('graph')
  if (rel.conversations === undefined) throw new MemoryErrors.NOT_CONFIGURED(`The relational store (${rel.backend}) cannot list conversations, so it cannot export them; memory-sql can.`)
  // Every channel any store holds something in (a channel need not have been created).
  const all = (await svc.channels.listChannels()).map(c => ({ name: c.name, created_at: c.created_at }))
  const channels = channel === undefined ? all : all.filter(c => c.name === channel)
  if (channels.length === 0) throw new MemoryErrors.NOT_FOUND(`No channel "${channel ?? ''}". GET /api/memory/channels lists them.`)
  return { channels, rel, graph }
}

export async function * exportLines (svc: MemoryServiceImpl, plan: Awaited<ReturnType<typeof exportPlan>>): AsyncGenerator<string> {
  const { channels, rel, graph } = plan
  yield out('header', { format: FORMAT, version: VERSION, exported_at: new Date().toISOString(), channels: channels.map(c => c.name), embedder: svc.embedding.embedder()?.id ?? null })
  for (const c of channels) yield out('channel', c)
  for (const { name } of channels) {
    yield * conversations(rel, name)
    yield * entities(graph, name)
    for (let offset = 0; ; offset += PAGE) {
      const page = await graph.facts({ channel: name, include_superseded: true, offset, limit: PAGE })
      for (const f of page.items) yield out('fact', f)
      if (page.items.length < PAGE) break
    }
    for (const g of await rel.goals({ channels: [name], limit: ALL_TURNS })) yield out('goal', g)
    for (let offset = 0; ; offset += PAGE) {
      const page = await rel.strategies({ channel: name, offset, limit: PAGE })
      for (const s of page.items) yield out('strategy', s)
      if (page.items.length < PAGE) break
    }
  }
}

async function * conversations (rel: RelationalStore, channel: string): AsyncGenerator<string> {
  const list = rel.conversations
  if (list === undefined) return
  for (let after: string | undefined; ;) {
    const page = await list.call(rel, { channel, after, limit: PAGE })
    for (const c of page) {
      yield out('conversation', { id: c.id, channel: c.channel, created_at: c.created_at, updated_at: c.updated_at, consolidated_at: c.consolidated_at })
      for (const t of await rel.conversationTurns(c.id, ALL_TURNS)) {
        const { embedder: _, token_count: _t, ...turn } = t
        yield out('turn', turn)
      }
    }
    if (page.length < PAGE) return
    after = page[page.length - 1].id
  }
}

/** Entities, then the relationships from them (every edge once, from its source): listed when the store can, else by a one-hop walk per entity (Neo4j). */
async function * entities (graph: GraphStore, channel: string): AsyncGenerator<string> {
  const ids: string[] = []
  for (let offset = 0; ; offset += PAGE) {
    const page = await graph.entities({ channel, offset, limit: PAGE })
    for (const e of page.items) { ids.push(e.id); yield out('entity', e) }
    if (page.items.length < PAGE) break
  }
  const list = graph.relationships
  if (list !== undefined) {
    for (let after: string | undefined; ;) {
      const page = await list.call(graph, { channel, after, limit: PAGE })
      for (const r of page) yield out('relationship', { source_id: r.source_id, target_id: r.target_id, type: r.type, confidence: r.confidence, channel })
      if (page.length < PAGE) return
      after = page[page.length - 1].id
    }
  }
  for (const id of ids) {
    const g = await graph.graph(id, 1, GRAPH_WALK_LIMIT.max)
    for (const r of g?.relationships ?? []) {
      if (r.direction !== 'outgoing' || r.source.id !== id) continue
      yield out('relationship', { source_id: r.source.id, target_id: r.target.id, type: r.type, confidence: r.confidence, channel })
    }
  }
}

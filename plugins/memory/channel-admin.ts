// Channel administration across every store: counts per channel, listing, creating, and
// deleting a channel's data everywhere (one transaction when both SQL stores share a
// database; every store checked first, so a down store leaves nothing half-deleted).
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { ServiceContext } from './context.ts'
import { DEFAULT, GLOBAL, checkChannel } from './channels.ts'
import { MemoryErrors } from './errors.ts'
import type { GraphCopy } from './graph-copy.ts'

export interface ChannelInfo { name: string, is_default: boolean, created_at: string, item_counts: Record<string, number> }

export class ChannelAdmin {
  readonly #ctx: ServiceContext
  readonly #copy: GraphCopy | undefined

  constructor (ctx: ServiceContext, copy?: GraphCopy) { this.#ctx = ctx; this.#copy = copy }

  async channelCounts (): Promise<Record<string, Record<string, number>>> {
    const [rel, graph] = await Promise.all([this.#ctx.need('relational').countByChannel(), this.#ctx.graph?.countByChannel() ?? {}])
    const out: Record<string, Record<string, number>> = {}
    for (const src of [rel, graph]) for (const [ch, counts] of Object.entries(src)) Object.assign(out[ch] ??= {}, counts)
    return out
  }

  async listChannels (): Promise<ChannelInfo[]> {
    const [channels, counts] = await Promise.all([this.#ctx.need('relational').channels(), this.channelCounts()])
    const names = new Map(channels.map(c => [c.name, c.created_at]))
    for (const ch of Object.keys(counts)) if (!names.has(ch)) names.set(ch, new Date(0).toISOString())
    return [...names].sort(([a], [b]) => a.localeCompare(b)).map(([name, createdAt]) => {
      const c = counts[name] ?? {}
      return { name, is_default: name === DEFAULT, created_at: createdAt, item_counts: { turns: c.turns ?? 0, entities: c.entities ?? 0, facts: c.facts ?? 0, strategies: c.strategies ?? 0, goals: c.goals ?? 0 } }
    })
  }

  async createChannel (name: string): Promise<{ name: string, created_at: string }> {
    const store = this.#ctx.need('relational')
    const res = await store.createChannel(checkChannel(name))
    if (!res.created) throw new MemoryErrors.CHANNEL_EXISTS(name)
    await store.audit({ action: 'channel.create', target: name, channel: name }).catch(() => {})
    return res.channel
  }

  /** Removes the channel's data from every store; checks every store first so a down store leaves nothing half-deleted. */
  async deleteChannel (name: string): Promise<Record<string, number>> {
    checkChannel(name)
    if (name === GLOBAL) throw new MemoryErrors.BAD_REQUEST('The _global channel cannot be deleted.')
    const rel = this.#ctx.need('relational')
    const graph = this.#ctx.graph
    const kv = this.#ctx.kv
    for (const [role, s] of [['relational', rel], ['graph', graph], ['kv', kv]] as const) {
      if (s === undefined) continue
      const h = await s.health()
      if (h.status !== 'healthy') throw new StoreUnavailableError(role, s.backend, new Error(h.error ?? 'unhealthy'))
    }
    const known = (await rel.channels()).some(c => c.name === name) || (await this.channelCounts())[name] !== undefined
    if (!known) throw new MemoryErrors.NOT_FOUND(`No channel "${name}". GET /api/memory/channels lists them.`)
    // Copies still queued for the graph store land before it is emptied, not after.
    await this.#copy?.flush()
    // One transaction when both SQL stores share a database; otherwise store by store
    // (every store was checked above, so a failure half-way is a failure mid-call).
    const both = graph === undefined ? undefined : await rel.deleteChannelWith?.(name, graph)
    const r = both?.relational ?? await rel.deleteChannel(name)
    const g = both?.graph ?? (graph === undefined ? {} : await graph.deleteChannel(name))
    // _default is emptied, not removed: memory without a channel still goes there.
    if (name === DEFAULT) await rel.createChannel(DEFAULT)
    const redisKeys = kv === undefined ? 0 : await kv.deletePrefix(`ch:${name}:`)
    const sum = (o: Record<string, number>): number => Object.values(o).reduce((a, b) => a + b, 0)
    const graphOnSql = graph !== undefined && graph.backend === rel.backend
    const deleted = {
      turns: r.turns ?? 0, entities: g.entities ?? 0, facts: g.facts ?? 0, strategies: r.strategies ?? 0, goals: r.goals ?? 0,
      conversations: r.conversations ?? 0, postgres_rows: sum(r) + (graphOnSql ? sum(g) : 0), redis_keys: redisKeys,
      // Items the graph store removed when it lives elsewhere (Neo4j: nodes and RELATES_TO edges, copies included).
      graph_items: graph === undefined || graphOnSql ? 0 : sum(g),
    }
    await rel.audit({ action: 'channel.delete', target: name, channel: name, details: deleted }).catch(() => {})
    return deleted
  }
}

// The memory kit: values every memory plugin shares (the contracts are types only).
// A store throws StoreUnavailableError when its backend cannot be reached; channel names
// follow one rule everywhere; vectors are unit length; a fact's duplicate key is claimHash.
import type { EntityGraph, StoreHealth } from '../../contracts/memory-stores.ts'

export { claimHash } from './claim-hash.ts'

/**
 * Thrown by a store when its backend cannot be reached (connection refused, dropped,
 * timed out). The memory routes turn it into a 503 that names the store; the chat path
 * swallows it. Anything else a store throws is a bug or a caller's mistake.
 */
export class StoreUnavailableError extends Error {
  readonly role: 'relational' | 'graph' | 'kv'
  readonly backend: string
  constructor (role: 'relational' | 'graph' | 'kv', backend: string, cause: unknown) {
    super(`The ${role} memory store (${backend}) is unavailable: ${(cause as Error | undefined)?.message ?? String(cause)}`, { cause })
    this.name = 'StoreUnavailableError'
    this.role = role
    this.backend = backend
  }
}

/** An entity edit would give it the name and type another entity of its channel has. */
export class EntityConflictError extends Error {
  readonly existingId: string
  constructor (existingId: string, message: string) {
    super(message)
    this.name = 'EntityConflictError'
    this.existingId = existingId
  }
}

/** Longest channel name: every store keys data by it (SQL column, Redis key prefix). */
export const CHANNEL_MAX_LENGTH = 64
/** Reserved: a filter value meaning "every channel" on list endpoints; never a channel. */
export const CHANNEL_ALL = '_all'
/**
 * A channel name: 1-64 letters, digits, hyphens or underscores, and not `_all`. The one
 * rule for every plugin that takes a channel (chat, agent, memory): a name another
 * plugin accepts but memory refuses would silently lose that request's memory.
 */
export const CHANNEL_PATTERN = `^(?!${CHANNEL_ALL}$)[A-Za-z0-9_-]{1,${CHANNEL_MAX_LENGTH}}$`
const CHANNEL_RE = new RegExp(CHANNEL_PATTERN)
export const isChannelName = (name: string): boolean => CHANNEL_RE.test(name)

/**
 * How many relationships one entity-graph walk returns (`GraphStore.graph`): a hub entity
 * with k neighbours each with k more has k^3 paths within three hops, so every store cuts
 * the walk, nearest edges first, and says so (`EntityGraph.truncated`).
 */
export const GRAPH_WALK_LIMIT = { default: 500, max: 2000 } as const
/** A walk's limit as a store applies it: the default when absent, else an integer within 1 and the maximum. */
export const graphWalkLimit = (limit?: number): number =>
  limit === undefined || !Number.isFinite(limit) ? GRAPH_WALK_LIMIT.default : Math.max(1, Math.min(GRAPH_WALK_LIMIT.max, Math.trunc(limit)))

/**
 * One relationship of a graph walk as every graph store answers it, from the row its walk
 * query returns (`type`, `confidence`, `depth`, `forward`, and the two ends' id, name, type).
 * `forward` is a boolean, or `'t'` from a database that sends booleans as text.
 */
export function walkedRelationship (r: Record<string, unknown>): EntityGraph['relationships'][number] {
  return {
    type: String(r.type), confidence: Number(r.confidence), depth: Number(r.depth),
    direction: r.forward === true || r.forward === 't' ? 'outgoing' : 'incoming',
    source: { id: String(r.source_id), name: String(r.source_name), type: String(r.source_type) },
    target: { id: String(r.target_id), name: String(r.target_name), type: String(r.target_type) },
  }
}

/** Scales a vector to unit length (a zero vector stays zero). */
export function normalize (v: number[]): number[] {
  let sum = 0
  for (const x of v) sum += x * x
  const n = Math.sqrt(sum)
  return n === 0 ? v : v.map(x => x / n)
}
export { Breaker } from './breaker.ts'
export { GLOBAL_CHANNEL, JobSetting, graphStoreFor, memoryJobSupport, sectionValues, intervalSetting, serialized } from './jobs.ts'
export { loadNlp, type Nlp } from './nlp.ts'

// The memory service contract: what chat and agent need from memory (store a turn,
// recall a bundle). The memory plugin implements it over the store roles.
import type { Turn } from './memory-stores.ts'
import type { RecallParts } from './recall.ts'
import type { TraceContext } from '../kernel/telemetry.ts'

/** Where a recall looked. */
export interface RecallScope {
  /** The active channel. */
  channel: string
  /** What was read: the active channel and `_global`. */
  channels: string[]
  conversation_id: string | null
}

/** What recall found: the ranked parts and where it looked (empty `{}` when nothing was asked of the stores). */
export interface MemoryBundle extends RecallParts {
  user_context: RecallScope | Record<string, never>
}

export interface RecallResult extends MemoryBundle {
  /** The bundle rendered as prompt text within the token budget ('' when nothing was found). */
  context: string
  techniques: string[]
  timings_ms: Record<string, number>
  /** Stores that could not be asked; recall still answers with what the others gave. */
  degraded?: string[]
  /** Why a technique gave nothing (no model, it failed, it timed out), by technique name. */
  notes?: Record<string, string>
  /** Set when stored vectors were made by another embedder than the active one. */
  warning?: string
}

/**
 * What the chat flow needs from memory. Registered under registry.memoryServices.
 * Failure-tolerant: storeTurn and recall never reject because a store is down
 * (storeTurn queues the turn in the outbox, recall answers with an empty context and says why).
 */
export interface MemoryService {
  /**
   * `queued`: the store could not be reached; the turn is in the durable outbox and is
   * stored, in order, once the store is back (so `stored: false` is then no loss).
   * `earlier`: what was said before it in its conversation, oldest first, as the caller
   * holds it (a chat's history); given, the store is not read for it.
   */
  storeTurn: (turn: { conversation_id: string, role: string, content: string, channel?: string, metadata?: Record<string, unknown>, earlier?: string[] }) => Promise<{ stored: boolean, queued?: boolean, turn?: Turn, error?: string }>
  /**
   * `seen`: the texts the caller's prompt holds already (a chat's history and new message);
   * turns saying them are left out, and the store is not read for the conversation's latest turns.
   * `trace`: the caller's trace context, the parent of the recall's span.
   */
  recall: (query: { text: string, channel?: string, top_k?: number, conversation_id?: string, token_budget?: number, seen?: string[], trace?: TraceContext }, signal?: AbortSignal) => Promise<RecallResult>
  /** Writes waiting in the outbox (a store was down), every outbox counted; for metrics. */
  outboxDepth?: () => number
}


declare module '../kernel/registry.ts' {
  interface Capabilities { memoryServices: MemoryService }
}

declare module '../kernel/hooks.ts' {
  interface HookPayloads {
    /** After memory stored an item. */
    'memory:stored': { kind: string, item: unknown }
    /** After recall built a bundle; a handler may replace the bundle. */
    'recall:after': { query: string, bundle: RecallResult }
  }
}

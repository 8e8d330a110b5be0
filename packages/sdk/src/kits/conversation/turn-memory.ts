// The memory calls around one conversation turn, for every plugin that holds a
// conversation with a model (chat, the OpenAI-compatible API): recall for the new message,
// store the turns. Every call is optional (no memory service registered: skipped), bounded
// in time, and never throws: a memory failure is logged and the conversation goes on.
import type { FastifyBaseLogger } from 'fastify'
import type { MemoryService } from '../../contracts/memory-service.ts'
import { TIMED_OUT, within } from '../../kernel/settle.ts'
import type { TraceContext } from '../../kernel/telemetry.ts'

/** `earlier`: what was said before it, oldest first, from the history the caller holds (memory does not read the conversation for it). */
export interface TurnToStore { role: 'user' | 'assistant', content: string, metadata?: Record<string, unknown>, earlier?: string[] }

async function bounded<T> (what: string, ms: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController()
  const outcome = await within(fn(ctl.signal), ms)
  if (outcome !== TIMED_OUT) return outcome
  ctl.abort()
  throw new Error(`${what} took longer than ${ms} ms`)
}

export class ChatMemory {
  readonly #service: MemoryService | undefined
  readonly #log: FastifyBaseLogger
  readonly #timeoutMs: number

  constructor (service: MemoryService | undefined, log: FastifyBaseLogger, timeoutMs: number) {
    this.#service = service
    this.#log = log
    this.#timeoutMs = timeoutMs
  }

  get available (): boolean { return this.#service !== undefined }

  /** Stores one turn; resolves false (logged) when it fails. */
  async store (conversationId: string, channel: string | undefined, turn: TurnToStore): Promise<boolean> {
    const svc = this.#service
    if (svc === undefined) return false
    try {
      const r = await bounded('memory storeTurn', this.#timeoutMs, async () => await svc.storeTurn({ conversation_id: conversationId, channel, ...turn }))
      // Queued: the store is down and the turn waits in the memory service's outbox (not lost).
      if (r?.stored === false && r.queued === true) return true
      if (r?.stored === false) this.#log.warn({ conversation_id: conversationId, error: r.error }, 'memory: turn not stored; the chat goes on')
      return r?.stored !== false
    } catch (err) {
      this.#log.warn({ err, conversation_id: conversationId }, 'memory: storing a turn failed; the chat goes on')
      return false
    }
  }

  /**
   * The rendered memory context for a message, or '' when there is none or recall failed.
   * `seen`: the texts the prompt holds already (left out of what recall returns);
   * `trace`: the caller's trace context (the recall's span goes under it).
   */
  async recall (conversationId: string, channel: string | undefined, text: string, seen?: string[], trace?: TraceContext): Promise<string> {
    const svc = this.#service
    if (svc === undefined) return ''
    try {
      const bundle = await bounded('memory recall', this.#timeoutMs, async (signal) => await svc.recall({ text, channel, conversation_id: conversationId, seen, trace }, signal))
      return typeof bundle?.context === 'string' ? bundle.context : ''
    } catch (err) {
      this.#log.warn({ err, conversation_id: conversationId }, 'memory: recall failed; answering without memory context')
      return ''
    }
  }

  /** Stores turns in order, off the request path. */
  storeLater (conversationId: string, channel: string | undefined, turns: TurnToStore[]): void {
    if (this.#service === undefined || turns.length === 0) return
    setImmediate(() => {
      void (async () => { for (const t of turns) await this.store(conversationId, channel, t) })()
    })
  }
}

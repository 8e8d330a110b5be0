// Hook points: a fixed, declared list. A plugin that names an unknown point fails at
// registration, not silently at run time. Handlers run in registration order; each may
// return a replacement payload (or nothing to keep it).
import { Errors } from './errors.ts'

export const HOOK_POINTS = [
  'chat:request', // before a chat turn starts: payload { request, session }
  'chat:response', // after the answer is final: payload { request, response }
  'prompt:compose', // after the system prompt is composed: payload { prompt, profile_id }
  'provider:before', // before a provider call: payload { provider, request }
  'provider:after', // after a provider call: payload { provider, request, result }
  'tool:before', // before a tool runs: payload { tool, arguments }
  'tool:after', // after a tool ran: payload ToolAfterPayload (contracts/tool-source.ts): { tool, arguments, result, conversation_id, channel, use_memory, duration_ms }
  'memory:stored', // after memory stored an item: payload { kind, item }
  'recall:after', // after recall built a bundle: payload { query, bundle }
  'agent:step', // after a full-agent step: payload { task_id, step }
] as const

export type HookPoint = typeof HOOK_POINTS[number]
export type HookHandler<P = unknown> = (payload: P) => Promise<P | undefined | void> | P | undefined | void

function assertKnown (name: string): asserts name is HookPoint {
  if (!(HOOK_POINTS as readonly string[]).includes(name)) throw new Errors.UNKNOWN_HOOK(name, HOOK_POINTS.join(', '))
}

export class Hooks {
  readonly #handlers = new Map<HookPoint, HookHandler[]>()

  on<P = unknown> (name: HookPoint, handler: HookHandler<P>): void {
    assertKnown(name)
    const list = this.#handlers.get(name) ?? []
    list.push(handler as HookHandler)
    this.#handlers.set(name, list)
  }

  has (name: HookPoint): boolean {
    assertKnown(name)
    return (this.#handlers.get(name)?.length ?? 0) > 0
  }

  /** Runs every handler in order; a handler's non-undefined return replaces the payload. */
  async run<P> (name: HookPoint, payload: P): Promise<P> {
    assertKnown(name)
    let current = payload
    for (const handler of this.#handlers.get(name) ?? []) {
      const next = await handler(current)
      if (next !== undefined) current = next as P
    }
    return current
  }
}

// Caps on work that holds the machine (model calls, streams, agent runs, tool calls), so a
// burst of requests gets a quick 503 with Retry-After instead of exhausting memory,
// sockets or the upstream's allowance. One count per kind for the whole process (module
// state, shared by every plugin and generation: a reload must not hand out a fresh
// allowance while the old generation's streams still run). Limits come from the
// environment, read when a plugin asks for its cap.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Errors } from './errors.ts'
import { envInt } from './env.ts'
import type { Env } from './plugin.ts'

export const CAP_KINDS = {
  chats: { env: 'AGENT_MAX_CONCURRENT_CHATS', dflt: 256, what: 'chats answered at once' },
  streams: { env: 'AGENT_MAX_CONCURRENT_STREAMS', dflt: 2048, what: 'streams open at once' },
  agent_runs: { env: 'AGENT_MAX_CONCURRENT_AGENT_RUNS', dflt: 16, what: 'agent runs at once' },
  tool_calls: { env: 'AGENT_MAX_CONCURRENT_TOOL_CALLS', dflt: 64, what: 'tool calls at once' },
} as const

export type CapKind = keyof typeof CAP_KINDS

/** Seconds a refused caller is told to wait. */
const RETRY_AFTER_S = 1

export class ConcurrencyCap {
  readonly kind: CapKind
  max: number
  #active = 0

  constructor (kind: CapKind, max: number) { this.kind = kind; this.max = max }

  get active (): number { return this.#active }

  /** Takes a slot or throws AGENT_ERR_BUSY (503, Retry-After); the returned function gives it back (once). */
  acquire (): () => void {
    if (this.#active >= this.max) {
      const spec = CAP_KINDS[this.kind]
      throw Object.assign(new Errors.BUSY(`The server is at its limit of ${this.max} ${spec.what} (${spec.env}); retry in a moment.`), { retryAfter: RETRY_AFTER_S })
    }
    this.#active++
    let held = true
    return () => { if (held) { held = false; this.#active-- } }
  }

  /** Runs `fn` in a slot. */
  async run<T> (fn: () => Promise<T>): Promise<T> {
    const release = this.acquire()
    try { return await fn() } finally { release() }
  }

  /** A route hook: takes a slot for the request, given back when its response closes (a stream when it ends). */
  readonly hook = async (_request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.raw.once('close', this.acquire())
  }
}

const caps = new Map<CapKind, ConcurrencyCap>()

/** The process's cap for a kind, its limit (re)read from the environment. */
export function concurrencyCap (kind: CapKind, env: Env): ConcurrencyCap {
  const spec = CAP_KINDS[kind]
  const max = Math.max(1, envInt(env, spec.env, spec.dflt))
  let cap = caps.get(kind)
  if (cap === undefined) { cap = new ConcurrencyCap(kind, max); caps.set(kind, cap) } else cap.max = max
  return cap
}

/** The process's cap for a kind as last configured (by a plugin's concurrencyCap call), without re-reading a limit. */
export function currentCap (kind: CapKind): ConcurrencyCap {
  let cap = caps.get(kind)
  if (cap === undefined) { cap = new ConcurrencyCap(kind, CAP_KINDS[kind].dflt); caps.set(kind, cap) }
  return cap
}

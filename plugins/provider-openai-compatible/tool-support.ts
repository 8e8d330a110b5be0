// Whether a model the catalogue does not describe can use tools, learnt from the server.
// Where it can tell, the server is asked once per model: Ollama's `POST /api/show` lists
// `capabilities` ("tools" among them), LM Studio's `GET /api/v0/models` describes every
// model (`capabilities: ["tool_use"]` since 0.3.16). Otherwise tools are offered, and
// when the server refuses them (a 4xx whose message names tools, as Ollama, vLLM and
// llama.cpp answer) the provider retries once without and this remembers it. The answers
// are kept per provider and server address for the life of the process (the pool keeps
// this object across reloads), and shown by GET /api/providers/models. The catalogue and
// `models.overrides` decide first: this is asked only when neither says `supports_tools`.
import { TIMED_OUT, within } from '@agentd/sdk'

export type LearntFrom = 'ollama /api/show' | 'lm studio /api/v0/models' | 'refused tools'

export interface Learnt {
  supports_tools: boolean
  from: LearntFrom
  /** ISO time it was learnt. */
  at: string
}

interface Probe { server: 'ollama' | 'lmstudio', verdict: boolean | undefined }
/** A probe's outcome: the server's answer, 'other' (it answered, but is not this kind of server), or 'silent' (no answer in time). */
type Outcome = Probe | 'other' | 'silent'

export interface ToolSupportOptions {
  /** The server's OpenAI-compatible base URL (`http://host:11434/v1`); native APIs live at its origin. */
  baseUrl: string
  /** Sent as `Authorization: Bearer` when set (a proxy in front of the server may want it). */
  apiKey?: string
  /** Limit of one probe. */
  timeoutMs: number
  /** False: never ask the server (hosted APIs have no native endpoint); refusals are still learnt. */
  probe: boolean
}

/** The part of a base URL before the OpenAI-compatible `/v1`. */
export function nativeOrigin (baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')
}

/** True for an upstream error that refuses tools: a 4xx whose message names them. */
export function refusesTools (err: unknown): boolean {
  const e = err as { upstreamStatus?: unknown, message?: unknown } | undefined
  const status = typeof e?.upstreamStatus === 'number' ? e.upstreamStatus : undefined
  if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403 || status === 429) return false
  return typeof e?.message === 'string' && /\btools?\b|tool[ _-]?(choice|call|use)|function[ _-]?call/i.test(e.message)
}

export class ToolSupport {
  readonly #opts: ToolSupportOptions
  readonly #learnt = new Map<string, Learnt>()
  /** Models already asked about (answered or not), so a server that cannot tell is asked once. */
  readonly #asked = new Map<string, Promise<Learnt | undefined>>()
  /** Which native API the server has, once one answered; 'none' after neither did. */
  #server: 'ollama' | 'lmstudio' | 'none' | undefined

  constructor (opts: ToolSupportOptions) {
    this.#opts = opts
  }

  get (model: string): Learnt | undefined { return this.#learnt.get(model) }

  /** Everything learnt so far, by model. */
  all (): ReadonlyMap<string, Learnt> { return this.#learnt }

  /** The server refused tools for `model`. */
  refused (model: string): void {
    this.#learnt.set(model, { supports_tools: false, from: 'refused tools', at: new Date().toISOString() })
  }

  /** Asks the server about `model` (once; later calls share the answer). Never throws. */
  async discover (model: string): Promise<Learnt | undefined> {
    const known = this.#learnt.get(model)
    if (known !== undefined || !this.#opts.probe) return known
    let pending = this.#asked.get(model)
    if (pending === undefined) {
      pending = this.#ask(model)
      this.#asked.set(model, pending)
    }
    return await pending
  }

  /** Forgets that `model` was asked about (the server did not answer): the next call asks again. */
  #retryLater (model: string): undefined {
    this.#asked.delete(model)
    return undefined
  }

  async #ask (model: string): Promise<Learnt | undefined> {
    if (this.#server === 'none') return undefined
    const probes: Array<() => Promise<Outcome>> = []
    if (this.#server !== 'lmstudio') probes.push(async () => await this.#ollama(model))
    if (this.#server !== 'ollama') probes.push(async () => await this.#lmstudio(model))
    let silent = false
    for (const probe of probes) {
      const p = await probe()
      if (p === 'silent') { silent = true; continue }
      if (p === 'other') continue
      this.#server = p.server
      if (p.verdict === undefined) return undefined
      const learnt: Learnt = { supports_tools: p.verdict, from: p.server === 'ollama' ? 'ollama /api/show' : 'lm studio /api/v0/models', at: new Date().toISOString() }
      // A refusal learnt meanwhile stands.
      if (!this.#learnt.has(model)) this.#learnt.set(model, learnt)
      return this.#learnt.get(model)
    }
    // A server that answered neither (vLLM, llama.cpp) is not asked again; one that did not answer at all is, next time.
    if (silent) return this.#retryLater(model)
    this.#server ??= 'none'
    return undefined
  }

  async #get (path: string, init: RequestInit = {}): Promise<unknown> {
    const ctl = new AbortController()
    const headers: Record<string, string> = { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) }
    if (this.#opts.apiKey !== undefined) headers.authorization = `Bearer ${this.#opts.apiKey}`
    const run = async (): Promise<unknown> => {
      const res = await fetch(nativeOrigin(this.#opts.baseUrl) + path, { ...init, headers, signal: ctl.signal })
      const text = await res.text()
      let body: unknown
      try { body = JSON.parse(text) } catch { body = text }
      return { status: res.status, body }
    }
    try {
      const out = await within(run(), this.#opts.timeoutMs)
      if (out === TIMED_OUT) { ctl.abort(); return undefined }
      return out
    } catch {
      return undefined
    }
  }

  /** Ollama: 200 with `capabilities` (0.6.4 and later) says; 200 without, or "model not found", is Ollama that cannot tell. */
  async #ollama (model: string): Promise<Outcome> {
    const r = await this.#get('/api/show', { method: 'POST', body: JSON.stringify({ model }) }) as { status: number, body: unknown } | undefined
    if (r === undefined) return 'silent'
    const body = r.body as { capabilities?: unknown, model_info?: unknown, error?: unknown } | null
    if (r.status === 200 && typeof body === 'object' && body !== null && ('model_info' in body || 'capabilities' in body)) {
      return { server: 'ollama', verdict: Array.isArray(body.capabilities) ? body.capabilities.includes('tools') : undefined }
    }
    if (r.status === 404 && typeof body?.error === 'string' && /model .* not found/i.test(body.error)) return { server: 'ollama', verdict: undefined }
    return 'other'
  }

  /** LM Studio: the model's entry; `capabilities` without "tool_use" says no, no `capabilities` (before 0.3.16) cannot tell. */
  async #lmstudio (model: string): Promise<Outcome> {
    const r = await this.#get('/api/v0/models') as { status: number, body: unknown } | undefined
    if (r === undefined) return 'silent'
    const data = (r.body as { data?: unknown } | null)?.data
    if (r.status !== 200 || !Array.isArray(data)) return 'other'
    const entry = (data as Array<{ id?: unknown, capabilities?: unknown }>).find(m => m.id === model)
    if (entry === undefined) return { server: 'lmstudio', verdict: undefined }
    return { server: 'lmstudio', verdict: Array.isArray(entry.capabilities) ? entry.capabilities.includes('tool_use') : undefined }
  }
}

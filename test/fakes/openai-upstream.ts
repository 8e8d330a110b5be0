// A fake OpenAI-compatible server on loopback, speaking the real wire format
// (POST /v1/chat/completions, plain and SSE; GET /v1/models). Each incoming completion
// takes the next scripted reply; when the script is empty, `fallback` answers.
// Used by provider, chat and agent tests and by the benches: drive it through the real
// `openai` SDK or through agentd.
import type http from 'node:http'
import { FakeUpstream, sleep, splitEvery, type UpstreamRequest } from './upstream-server.ts'

export interface ScriptedToolCall { id?: string, name: string, arguments: Record<string, unknown> | string }

export interface TextReply {
  text?: string
  /** Sent as `reasoning_content` deltas (DeepSeek/vLLM style) or `reasoning` (Ollama/OpenRouter style). */
  thinking?: string
  thinkingField?: 'reasoning_content' | 'reasoning'
  tool_calls?: ScriptedToolCall[]
  finish_reason?: string
  /** null: omit usage entirely. */
  usage?: { prompt_tokens: number, completion_tokens: number } | null
  /** Characters per streamed delta (text and tool-call arguments). Default 4. */
  chunkSize?: number
  /** Delay before each streamed delta. */
  delayMs?: number
  /** Delay before the response starts. */
  firstDelayMs?: number
  /** The response starts once this settles (test/helpers/gate.ts): the test decides when. */
  gate?: Promise<void>
  model?: string
  /** Stream only: send this many deltas then fail the connection mid-stream. */
  breakAfter?: number
  /** Stream only: after `after` deltas (the role delta counts), wait for `gate` before the next: the test holds a stream mid-answer. */
  hold?: { after: number, gate: Promise<void> }
  /**
   * Stream only: content deltas made at send time, `next(i)` for i in 0..count-1, after
   * `text`. For benches that stamp each token with the moment it left the upstream.
   */
  tokens?: { count: number, next: (i: number) => string }
  /**
   * Stream only: false leaves `index` out of tool-call deltas, as some OpenAI-compatible
   * servers do (older Ollama, Gemini, SGLang); each call's first delta carries its id.
   */
  toolCallIndex?: false
}
export interface ErrorReply { status: number, message?: string, type?: string, headers?: Record<string, string> }
export interface HangReply { hang: true }
export type Reply = TextReply | ErrorReply | HangReply
export type ReplyFn = (req: RecordedRequest) => Reply

export type RecordedRequest = UpstreamRequest

/** A route the server has beside the OpenAI-compatible ones (Ollama's /api/show, LM Studio's /api/v0/models). */
export type NativeRoute = (req: RecordedRequest) => { status: number, body: unknown } | undefined

export interface FakeOpenAIOptions {
  models?: string[]
  /** Asked first for every request; undefined falls through to the OpenAI-compatible routes. */
  native?: NativeRoute
  fallback?: ReplyFn
  /** Require this bearer token; other tokens get 401 like the real API. */
  apiKey?: string
  /**
   * The 401 quotes the key it got, masked, as the real API does ("Incorrect API key
   * provided: sk-ab*****wxyz."). Default true; false gives a bare message.
   */
  echoKeyIn401?: boolean
}

/** How the real APIs quote a wrong key in a 401: its first 5 and last 4 characters. */
export function maskKey (key: string): string {
  if (key.length < 12) return '***'
  return `${key.slice(0, 5)}${'*'.repeat(key.length - 9)}${key.slice(-4)}`
}

const isError = (r: Reply): r is ErrorReply => 'status' in r
const isHang = (r: Reply): r is HangReply => 'hang' in r

export class FakeOpenAI extends FakeUpstream<Reply> {
  models: string[]
  apiKey: string | undefined
  echoKeyIn401: boolean
  native: NativeRoute | undefined
  /** Length of /v1/embeddings vectors when the request does not say `dimensions`. */
  embeddingDimensions = 1536

  constructor (opts: FakeOpenAIOptions = {}) {
    super(opts.fallback ?? ((req) => ({ text: `echo: ${String(req.body?.messages?.at(-1)?.content ?? '')}` })))
    this.models = opts.models ?? ['gpt-4o-mini', 'gpt-4o']
    this.apiKey = opts.apiKey
    this.echoKeyIn401 = opts.echoKeyIn401 ?? true
    this.native = opts.native
  }

  /** The server's origin (no /v1): where native APIs live. */
  get origin (): string { return this.url.replace(/\/v1$/, '') }

  /** The base URL includes /v1. */
  protected baseUrl (origin: string): string { return `${origin}/v1` }

  get completions (): RecordedRequest[] { return this.requests.filter(r => r.path.endsWith('/chat/completions')) }

  protected async answer (record: RecordedRequest, res: http.ServerResponse, done: () => void): Promise<void> {
    const { method, path } = record
    if (this.apiKey !== undefined && record.headers.authorization !== `Bearer ${this.apiKey}`) {
      const sent = (record.headers.authorization ?? '').replace(/^Bearer\s+/i, '')
      const message = this.echoKeyIn401 && sent !== ''
        ? `Incorrect API key provided: ${maskKey(sent)}. You can find your API key at https://platform.openai.com/account/api-keys.`
        : 'Incorrect API key provided.'
      this.#error(res, { status: 401, message, type: 'invalid_request_error' }); done(); return
    }
    const native = this.native?.(record)
    if (native !== undefined) { this.#json(res, native.status, native.body); done(); return }
    if (method === 'GET' && path.endsWith('/models')) {
      this.#json(res, 200, { object: 'list', data: this.models.map(id => ({ id, object: 'model', created: 1700000000, owned_by: 'fake' })) }); done(); return
    }
    if (method === 'POST' && path.endsWith('/embeddings')) { this.#embeddings(res, record); done(); return }
    if (method !== 'POST' || !path.endsWith('/chat/completions')) { this.#error(res, { status: 404, message: `no route ${method} ${path}` }); done(); return }

    const reply = this.nextReply(record)
    if (isHang(reply)) return // never answers; the client must time out or abort
    if (isError(reply)) { this.#error(res, reply); done(); return }
    await sleep(reply.firstDelayMs ?? 0)
    if (reply.gate !== undefined) await reply.gate
    if (record.stream) await this.#stream(res, record, reply)
    else this.#complete(res, record, reply)
    done()
  }

  /** POST /v1/embeddings: a deterministic unit vector per input (bag of character codes), float or base64 as asked. */
  #embeddings (res: http.ServerResponse, record: RecordedRequest): void {
    const b = (record.body ?? {}) as { input?: unknown, model?: string, dimensions?: number, encoding_format?: string }
    const inputs = typeof b.input === 'string' ? [b.input] : Array.isArray(b.input) ? b.input.map(String) : undefined
    if (inputs === undefined || inputs.length === 0) { this.#error(res, { status: 400, message: "'input' is required", type: 'invalid_request_error' }); return }
    const dims = b.dimensions ?? this.embeddingDimensions
    const data = inputs.map((text, index) => {
      const v = new Array<number>(dims).fill(0)
      for (let i = 0; i < text.length; i++) v[(text.charCodeAt(i) * 31 + i) % dims] += 1
      const n = Math.hypot(...v) || 1
      const unit = v.map(x => x / n)
      const embedding = b.encoding_format === 'base64' ? Buffer.from(new Float32Array(unit).buffer).toString('base64') : unit
      return { object: 'embedding', index, embedding }
    })
    const tokens = inputs.reduce((s, x) => s + Math.ceil(x.length / 4), 0)
    this.#json(res, 200, { object: 'list', data, model: b.model ?? 'fake-embedding', usage: { prompt_tokens: tokens, total_tokens: tokens } })
  }

  #json (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (res.destroyed) return
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
  }

  #error (res: http.ServerResponse, r: ErrorReply): void {
    this.#json(res, r.status, { error: { message: r.message ?? `error ${r.status}`, type: r.type ?? 'api_error', param: null, code: null } }, r.headers)
  }

  #toolCalls (reply: TextReply): Array<{ id: string, type: 'function', function: { name: string, arguments: string } }> {
    return (reply.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${i}_${Math.random().toString(36).slice(2, 8)}`,
      type: 'function' as const,
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
    }))
  }

  #usage (reply: TextReply): { prompt_tokens: number, completion_tokens: number, total_tokens: number } | undefined {
    if (reply.usage === null) return undefined
    const u = reply.usage ?? { prompt_tokens: 10, completion_tokens: Math.max(1, Math.ceil((reply.text ?? '').length / 4)) }
    return { ...u, total_tokens: u.prompt_tokens + u.completion_tokens }
  }

  #complete (res: http.ServerResponse, record: RecordedRequest, reply: TextReply): void {
    const toolCalls = this.#toolCalls(reply)
    const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? (toolCalls.length > 0 ? null : '') }
    if (toolCalls.length > 0) message.tool_calls = toolCalls
    if (reply.thinking !== undefined) message[reply.thinkingField ?? 'reasoning_content'] = reply.thinking
    const usage = this.#usage(reply)
    this.#json(res, 200, {
      id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: reply.model ?? record.body?.model ?? 'fake',
      choices: [{ index: 0, message, finish_reason: reply.finish_reason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'), logprobs: null }],
      ...(usage === undefined ? {} : { usage }),
    })
  }

  async #stream (res: http.ServerResponse, record: RecordedRequest, reply: TextReply): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
    const id = `chatcmpl-${Math.random().toString(36).slice(2)}`
    const model = reply.model ?? record.body?.model ?? 'fake'
    const size = reply.chunkSize ?? 4
    let sent = 0
    const send = async (delta: Record<string, unknown>, finish: string | null = null, content?: () => string): Promise<boolean> => {
      if (res.destroyed) return false
      if (reply.breakAfter !== undefined && sent >= reply.breakAfter) { res.destroy(); return false }
      if (reply.hold !== undefined && sent === reply.hold.after) await reply.hold.gate
      await sleep(reply.delayMs ?? 0)
      if (res.destroyed) return false
      if (content !== undefined) delta.content = content()
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })}\n\n`)
      sent++
      return true
    }
    if (!await send({ role: 'assistant', content: '' })) return
    const field = reply.thinkingField ?? 'reasoning_content'
    for (const piece of splitEvery(reply.thinking ?? '', size)) if (!await send({ [field]: piece })) return
    for (const piece of splitEvery(reply.text ?? '', size)) if (!await send({ content: piece })) return
    if (reply.tokens !== undefined) {
      const { count, next } = reply.tokens
      // Made after the delay so a stamped token carries the moment it is written.
      for (let i = 0; i < count; i++) if (!await send({ content: '' }, null, () => next(i))) return
    }
    const calls = this.#toolCalls(reply)
    for (const [i, call] of calls.entries()) {
      const index = reply.toolCallIndex === false ? {} : { index: i }
      if (!await send({ tool_calls: [{ ...index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] })) return
      for (const piece of splitEvery(call.function.arguments, size)) {
        if (!await send({ tool_calls: [{ ...index, function: { arguments: piece } }] })) return
      }
    }
    if (!await send({}, reply.finish_reason ?? (calls.length > 0 ? 'tool_calls' : 'stop'))) return
    const usage = this.#usage(reply)
    if (usage !== undefined && record.body?.stream_options?.include_usage === true && !res.destroyed) {
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage })}\n\n`)
    }
    if (!res.destroyed) res.end('data: [DONE]\n\n')
  }
}

/** Starts a fake and registers its close with the test. */
export async function startFakeOpenAI (t: { teardown: (fn: () => Promise<void>) => void }, opts?: FakeOpenAIOptions): Promise<FakeOpenAI> {
  const fake = await new FakeOpenAI(opts).start()
  t.teardown(async () => { await fake.close() })
  return fake
}

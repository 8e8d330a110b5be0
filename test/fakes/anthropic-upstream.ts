// A fake Anthropic Messages API on loopback, speaking the real wire format: POST
// /v1/messages (JSON, or SSE with message_start, content_block_start/delta/stop,
// message_delta, message_stop and ping events), GET /v1/models, and Anthropic's error
// bodies ({type:"error", error:{type, message}}). Each incoming message request takes the
// next scripted reply; when the script is empty, `fallback` answers. Drive it through the
// real `@anthropic-ai/sdk` (it authenticates with `Authorization: Bearer` or `x-api-key`).
import type http from 'node:http'
import { maskKey } from './openai-upstream.ts'
import { FakeUpstream, sleep, splitEvery, type UpstreamRequest } from './upstream-server.ts'

export interface ScriptedToolUse { id?: string, name: string, input: Record<string, unknown> }

export interface AnthropicTextReply {
  text?: string
  /** A thinking block before the text (extended thinking), with its signature. */
  thinking?: string
  signature?: string
  /** Encrypted reasoning blocks (`redacted_thinking`), after the thinking block. */
  redacted_thinking?: string[]
  tool_uses?: ScriptedToolUse[]
  stop_reason?: 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal'
  usage?: { input_tokens: number, output_tokens: number }
  /** Characters per streamed delta (text, thinking and tool input JSON). Default 4. */
  chunkSize?: number
  delayMs?: number
  firstDelayMs?: number
  model?: string
  /** Stream only: send this many events then fail the connection. */
  breakAfter?: number
  /** Stream only: send this many events, then an `error` event (as the API reports overload mid-stream), then end. */
  errorAfter?: { events: number, type?: string, message?: string }
}
export interface AnthropicErrorReply { status: number, type?: string, message?: string, headers?: Record<string, string> }
export interface AnthropicHangReply { hang: true }
export type AnthropicReply = AnthropicTextReply | AnthropicErrorReply | AnthropicHangReply
export type AnthropicReplyFn = (req: AnthropicRecordedRequest) => AnthropicReply

export type AnthropicRecordedRequest = UpstreamRequest

export interface FakeAnthropicOptions {
  models?: string[]
  fallback?: AnthropicReplyFn
  /** Require this key (x-api-key or Bearer); anything else gets 401 authentication_error. */
  apiKey?: string
  /** The 401 quotes the key it got, masked ("invalid x-api-key: sk-an*****wxyz"). Default false, as the real API answers "invalid x-api-key". */
  echoKeyIn401?: boolean
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error',
}

/** Models that refuse `thinking: { type: "enabled" }` (Opus 4.7 and later, the Claude 5 families, Fable, Mythos). */
const ONLY_ADAPTIVE = /^claude-(opus-4-[7-9]|[a-z]+-[5-9](-|$)|fable|mythos)/
/** Models from before adaptive thinking (Claude 4.5 and older). */
const NO_ADAPTIVE = /^claude-([a-z]+-4(-[0-5])?(-\d{8})?$|[a-z]+-4-[0-5]-|[a-z]+-[0-3](-|$)|[0-3]-)/

const isError = (r: AnthropicReply): r is AnthropicErrorReply => 'status' in r
const isHang = (r: AnthropicReply): r is AnthropicHangReply => 'hang' in r
export class FakeAnthropic extends FakeUpstream<AnthropicReply> {
  models: string[]
  apiKey: string | undefined
  echoKeyIn401: boolean

  constructor (opts: FakeAnthropicOptions = {}) {
    super(opts.fallback ?? ((req) => {
      const last = req.body?.messages?.at(-1)?.content
      return { text: `echo: ${typeof last === 'string' ? last : JSON.stringify(last)}` }
    }))
    this.models = opts.models ?? ['claude-sonnet-4-5', 'claude-haiku-4-5']
    this.apiKey = opts.apiKey
    this.echoKeyIn401 = opts.echoKeyIn401 ?? false
  }

  /** The base URL is the origin (the SDK appends /v1/...). */
  protected baseUrl (origin: string): string { return origin }

  get messages (): AnthropicRecordedRequest[] { return this.requests.filter(r => r.path.endsWith('/messages')) }

  #authorized (h: http.IncomingHttpHeaders): boolean {
    if (this.apiKey === undefined) return true
    return h['x-api-key'] === this.apiKey || h.authorization === `Bearer ${this.apiKey}`
  }

  protected async answer (record: AnthropicRecordedRequest, res: http.ServerResponse, done: () => void): Promise<void> {
    const { method, path, headers, body } = record
    if (!this.#authorized(headers)) {
      const sent = String(headers['x-api-key'] ?? (headers.authorization ?? '').replace(/^Bearer\s+/i, ''))
      const message = this.echoKeyIn401 && sent !== '' ? `invalid x-api-key: ${maskKey(sent)}` : 'invalid x-api-key'
      this.#error(res, { status: 401, message }); done(); return
    }
    if (method === 'GET' && path.endsWith('/v1/models')) {
      const data = this.models.map(id => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }))
      this.#json(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null })
      done(); return
    }
    if (method !== 'POST' || !path.endsWith('/v1/messages')) { this.#error(res, { status: 404, message: `no route ${method} ${path}` }); done(); return }
    const b = body as { model?: unknown, max_tokens?: unknown, messages?: unknown }
    if (typeof b.model !== 'string' || typeof b.max_tokens !== 'number' || !Array.isArray(b.messages)) {
      this.#error(res, { status: 400, message: 'model, max_tokens and messages are required' }); done(); return
    }

    // The API refuses the thinking form a model does not take (see provider-anthropic/thinking.ts).
    const thinking = (b as { thinking?: { type?: string } }).thinking?.type
    if (thinking === 'enabled' && ONLY_ADAPTIVE.test(b.model)) {
      this.#error(res, { status: 400, message: '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.' }); done(); return
    }
    if (thinking === 'adaptive' && NO_ADAPTIVE.test(b.model)) {
      this.#error(res, { status: 400, message: '"thinking.type.adaptive" is not supported for this model. Use "thinking.type.enabled" with "budget_tokens".' }); done(); return
    }

    const reply = this.nextReply(record)
    if (isHang(reply)) return
    if (isError(reply)) { this.#error(res, reply); done(); return }
    await sleep(reply.firstDelayMs ?? 0)
    if (record.stream) await this.#stream(res, record, reply)
    else this.#complete(res, record, reply)
    done()
  }

  #json (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (res.destroyed) return
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Math.random().toString(36).slice(2)}`, ...headers }).end(JSON.stringify(body))
  }

  #error (res: http.ServerResponse, r: AnthropicErrorReply): void {
    this.#json(res, r.status, { type: 'error', error: { type: r.type ?? ERROR_TYPES[r.status] ?? 'api_error', message: r.message ?? `error ${r.status}` } }, r.headers)
  }

  #blocks (reply: AnthropicTextReply): Array<Record<string, unknown>> {
    const blocks: Array<Record<string, unknown>> = []
    if (reply.thinking !== undefined) blocks.push({ type: 'thinking', thinking: reply.thinking, signature: reply.signature ?? 'sig_fake' })
    for (const data of reply.redacted_thinking ?? []) blocks.push({ type: 'redacted_thinking', data })
    if (reply.text !== undefined && reply.text !== '') blocks.push({ type: 'text', text: reply.text, citations: null })
    for (const [i, t] of (reply.tool_uses ?? []).entries()) blocks.push({ type: 'tool_use', id: t.id ?? `toolu_${i}_${Math.random().toString(36).slice(2, 8)}`, name: t.name, input: t.input })
    return blocks
  }

  #stop (reply: AnthropicTextReply): string { return reply.stop_reason ?? ((reply.tool_uses?.length ?? 0) > 0 ? 'tool_use' : 'end_turn') }

  #usage (reply: AnthropicTextReply): { input_tokens: number, output_tokens: number } {
    return reply.usage ?? { input_tokens: 12, output_tokens: Math.max(1, Math.ceil(((reply.text ?? '') + (reply.thinking ?? '')).length / 4)) }
  }

  #complete (res: http.ServerResponse, record: AnthropicRecordedRequest, reply: AnthropicTextReply): void {
    this.#json(res, 200, {
      id: `msg_${Math.random().toString(36).slice(2)}`,
      type: 'message',
      role: 'assistant',
      model: reply.model ?? record.body.model,
      content: this.#blocks(reply),
      stop_reason: this.#stop(reply),
      stop_sequence: null,
      usage: { ...this.#usage(reply), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    })
  }

  async #stream (res: http.ServerResponse, record: AnthropicRecordedRequest, reply: AnthropicTextReply): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': 'req_stream' })
    const size = reply.chunkSize ?? 4
    const usage = this.#usage(reply)
    let sent = 0
    const send = async (event: string, data: Record<string, unknown>): Promise<boolean> => {
      if (res.destroyed) return false
      if (reply.breakAfter !== undefined && sent >= reply.breakAfter) { res.destroy(); return false }
      if (reply.errorAfter !== undefined && sent >= reply.errorAfter.events) {
        const { type = 'overloaded_error', message = 'Overloaded' } = reply.errorAfter
        res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`)
        return false
      }
      await sleep(reply.delayMs ?? 0)
      if (res.destroyed) return false
      res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`)
      sent++
      return true
    }
    const id = `msg_${Math.random().toString(36).slice(2)}`
    if (!await send('message_start', { message: { id, type: 'message', role: 'assistant', model: reply.model ?? record.body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } })) return
    if (!await send('ping', {})) return
    for (const [index, block] of this.#blocks(reply).entries()) {
      if (block.type === 'thinking') {
        if (!await send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } })) return
        for (const piece of splitEvery(String(block.thinking), size)) if (!await send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } })) return
        if (!await send('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } })) return
      } else if (block.type === 'redacted_thinking') {
        if (!await send('content_block_start', { index, content_block: { type: 'redacted_thinking', data: block.data } })) return
      } else if (block.type === 'text') {
        if (!await send('content_block_start', { index, content_block: { type: 'text', text: '', citations: null } })) return
        for (const piece of splitEvery(String(block.text), size)) if (!await send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } })) return
      } else {
        if (!await send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } })) return
        for (const piece of splitEvery(JSON.stringify(block.input), size)) if (!await send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } })) return
      }
      if (!await send('content_block_stop', { index })) return
    }
    if (!await send('message_delta', { delta: { stop_reason: this.#stop(reply), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } })) return
    if (!await send('message_stop', {})) return
    if (!res.destroyed) res.end()
  }
}

/** Starts a fake and registers its close with the test. */
export async function startFakeAnthropic (t: { teardown: (fn: () => Promise<void>) => void }, opts?: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const fake = await new FakeAnthropic(opts).start()
  t.teardown(async () => { await fake.close() })
  return fake
}

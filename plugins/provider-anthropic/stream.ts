// Turns Anthropic's SSE events into StreamParts: text_delta -> text-delta, thinking_delta
// -> reasoning-delta; signature_delta and redacted_thinking blocks are kept, and
// input_json_delta pieces assembled per content block into whole tool calls with parsed
// arguments; once the upstream ended they are handed over (tool-call parts, the
// reasoning-signature, reasoning-redacted parts in order), then `finish` with the finish
// reason and usage. A plain class, so the kit's relay is the only async layer over the
// SDK's stream.
//
// The events come from the SDK's SSE decoder (`Stream.rawEvents`), not from its `Stream`:
// `SseAssembler` does what the Stream's own loop does with each message (pings and unnamed
// messages skipped, an `error` event thrown as the SDK's APIError, the data parsed), so a
// token passes one async layer less, the SDK's per-event generator: with it, the relay
// delivered 0.93-0.96 of the SDK's own tokens/s (bench/providers.bench.ts).
import type Anthropic from '@anthropic-ai/sdk'
import type { ServerSentEvent } from '@anthropic-ai/sdk/streaming'
import type { CompletionRequest, StreamPart } from '@agentd/sdk/contracts/provider'
import { parseArguments, usageOrEstimate } from '@agentd/sdk/kits/provider'
import { finishReason, usageOf } from './convert.ts'

interface PartialTool { id: string, name: string, json: string }

export class EventAssembler {
  readonly #req: CompletionRequest
  readonly #tools = new Map<number, PartialTool>()
  /** Characters of answer text so far, for the usage estimate when the upstream reports none. */
  #chars = 0
  #signature = ''
  readonly #redacted: string[] = []
  #stop: string | null | undefined
  #input: number | undefined
  #cache = 0
  #output: number | undefined
  #model: string | undefined

  constructor (req: CompletionRequest) { this.#req = req }

  /** The part to hand on for this event, or undefined when it carried no text. */
  push (ev: Anthropic.Messages.RawMessageStreamEvent): StreamPart | undefined {
    switch (ev.type) {
      case 'content_block_delta': {
        const d = ev.delta
        if (d.type === 'text_delta') { this.#chars += d.text.length; return { type: 'text-delta', delta: d.text } }
        if (d.type === 'thinking_delta') return { type: 'reasoning-delta', delta: d.thinking }
        if (d.type === 'signature_delta') this.#signature += d.signature
        else if (d.type === 'input_json_delta') { const t = this.#tools.get(ev.index); if (t !== undefined) t.json += d.partial_json }
        return undefined
      }
      case 'message_start': {
        this.#model = ev.message.model
        const u = ev.message.usage
        this.#input = u?.input_tokens ?? undefined
        this.#cache = (u?.cache_creation_input_tokens ?? 0) + (u?.cache_read_input_tokens ?? 0)
        return undefined
      }
      case 'content_block_start':
        if (ev.content_block.type === 'tool_use') this.#tools.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' })
        // Encrypted reasoning arrives whole in its start event; it has no deltas.
        else if (ev.content_block.type === 'redacted_thinking') this.#redacted.push(ev.content_block.data)
        return undefined
      case 'message_delta':
        this.#stop = ev.delta.stop_reason ?? this.#stop
        if (typeof ev.usage?.output_tokens === 'number') this.#output = ev.usage.output_tokens
        return undefined
      default:
        return undefined
    }
  }

  /** The closing parts: whole tool calls, the reasoning's signature and encrypted blocks, then finish. */
  finish (): StreamPart[] {
    const tools = [...this.#tools.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t)
    const parts: StreamPart[] = tools.map(t => ({ type: 'tool-call', call: { id: t.id, name: t.name, arguments: parseArguments(t.json) } }))
    if (this.#signature !== '') parts.push({ type: 'reasoning-signature', signature: this.#signature })
    for (const data of this.#redacted) parts.push({ type: 'reasoning-redacted', data })
    const reported = this.#input === undefined || this.#output === undefined ? undefined : usageOf({ input_tokens: this.#input + this.#cache, output_tokens: this.#output })
    parts.push({
      type: 'finish',
      finish_reason: finishReason(this.#stop, tools.length > 0),
      usage: usageOrEstimate(reported, this.#req, tools.reduce((n, t) => n + t.json.length, this.#chars)),
      model: this.#model ?? this.#req.model,
    })
    return parts
  }
}

/** The SDK's error class and the response's headers, for an `error` event as the SDK reports it. */
export interface SseErrorContext { APIError: typeof Anthropic.APIError, headers: Headers }

/** Anthropic's SSE messages as the SDK's Stream reads them, then the events through an EventAssembler. */
export class SseAssembler {
  readonly #events: EventAssembler
  readonly #errors: () => SseErrorContext

  constructor (events: EventAssembler, errors: () => SseErrorContext) {
    this.#events = events
    this.#errors = errors
  }

  push (sse: ServerSentEvent): StreamPart | undefined {
    if (sse.event === 'ping' || sse.event === null || sse.data === '') return undefined
    if (sse.event === 'error') {
      const { APIError, headers } = this.#errors()
      let body: unknown = sse.data
      try { body = JSON.parse(sse.data) } catch {}
      const type = (body as { error?: { type?: unknown } } | undefined)?.error?.type
      throw new APIError(undefined, body as object, undefined, headers, typeof type === 'string' ? type as Anthropic.ErrorType : undefined)
    }
    return this.#events.push(JSON.parse(sse.data) as Anthropic.Messages.RawMessageStreamEvent)
  }

  finish (): StreamPart[] { return this.#events.finish() }
}

// Turns Anthropic's SSE events into our StreamChunks: text_delta -> content,
// thinking_delta -> thinking (signature_delta and redacted_thinking blocks kept for the
// last chunk), input_json_delta
// pieces assembled per content block into whole tool calls with parsed arguments, handed
// over on the last chunk with the finish reason and usage. A plain class, so the kit's
// relay (kit/relay.ts) is the only async layer over the SDK's stream.
import type Anthropic from '@anthropic-ai/sdk'
import type { CompletionRequest, StreamChunk } from '@agentd/sdk/contracts/provider'
import { finishReason, usageOf } from './convert.ts'
import { usageOrEstimate } from '../providers-api/kit/estimate.ts'
import { parseArguments } from '../provider-openai-compatible/convert.ts'

interface PartialTool { id: string, name: string, json: string }

export class EventAssembler {
  readonly #req: CompletionRequest
  readonly #tools = new Map<number, PartialTool>()
  #text = ''
  #signature = ''
  readonly #redacted: string[] = []
  #stop: string | null | undefined
  #input: number | undefined
  #cache = 0
  #output: number | undefined
  #model: string | undefined

  constructor (req: CompletionRequest) { this.#req = req }

  /** The chunk to hand on for this event, or undefined when it carried no text. */
  push (ev: Anthropic.Messages.RawMessageStreamEvent): StreamChunk | undefined {
    switch (ev.type) {
      case 'content_block_delta': {
        const d = ev.delta
        if (d.type === 'text_delta') { this.#text += d.text; return { content: d.text } }
        if (d.type === 'thinking_delta') return { content: '', thinking: d.thinking }
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

  /** The last chunk: finish reason, whole tool calls, usage, reasoning signature. */
  finish (): StreamChunk {
    const tools = [...this.#tools.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t)
    const toolCalls = tools.map(t => ({ id: t.id, name: t.name, arguments: parseArguments(t.json) }))
    const reported = this.#input === undefined || this.#output === undefined ? undefined : usageOf({ input_tokens: this.#input + this.#cache, output_tokens: this.#output })
    const last: StreamChunk = {
      content: '',
      finish_reason: finishReason(this.#stop, toolCalls.length > 0),
      usage: usageOrEstimate(reported, this.#req, this.#text + tools.map(t => t.json).join('')),
      model: this.#model ?? this.#req.model,
    }
    if (toolCalls.length > 0) last.tool_calls = toolCalls
    if (this.#signature !== '') last.thinking_signature = this.#signature
    if (this.#redacted.length > 0) last.thinking_redacted = [...this.#redacted]
    return last
  }
}

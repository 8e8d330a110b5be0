// Turns OpenAI-style stream chunks into StreamParts: text and reasoning deltas are passed
// on as they come; tool-call deltas (split across many chunks, keyed by `index`) are
// assembled and handed over as whole `tool-call` parts, arguments parsed, once the
// upstream ended, before the `finish` part with the finish reason and the usage
// (estimated and marked when not reported). A plain class rather than a generator: the
// kit's relay is the only async layer between the SDK's stream and the consumer (see
// bench/providers.bench.ts).
import type OpenAI from 'openai'
import type { CompletionRequest, StreamPart } from '@agentd/sdk/contracts/provider'
import { parseArguments, usageOrEstimate } from '@agentd/sdk/kits/provider'
import { finishReason } from './convert.ts'

interface PartialCall { id: string, name: string, args: string }
interface ReasoningDelta { reasoning_content?: unknown, reasoning?: unknown }

export class ChunkAssembler {
  readonly #req: CompletionRequest
  readonly #calls: PartialCall[] = []
  /** Characters of answer text so far, for the usage estimate when the upstream reports none. */
  #chars = 0
  #reported: OpenAI.Completions.CompletionUsage | undefined
  #finish: string | null | undefined
  #model: string | undefined

  constructor (req: CompletionRequest) { this.#req = req }

  /** The part(s) to hand on for this upstream chunk, or undefined when it carried no text. */
  push (chunk: OpenAI.Chat.Completions.ChatCompletionChunk): StreamPart | StreamPart[] | undefined {
    if (chunk.usage !== undefined && chunk.usage !== null) this.#reported = chunk.usage
    this.#model ??= chunk.model
    const choice = chunk.choices?.[0]
    if (choice === undefined) return undefined
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.#finish = choice.finish_reason
    const delta = choice.delta
    if (delta === undefined || delta === null) return undefined
    if (delta.tool_calls !== undefined && delta.tool_calls !== null) {
      for (const d of delta.tool_calls) {
        const call = this.#slot(d)
        if (d.id !== undefined && d.id !== null && d.id !== '') call.id = d.id
        if (d.function?.name !== undefined) call.name += d.function.name
        if (d.function?.arguments !== undefined) call.args += d.function.arguments
      }
    }
    const content = delta.content ?? ''
    const r = delta as ReasoningDelta
    const thinking = r.reasoning_content ?? r.reasoning
    if (typeof thinking === 'string' && thinking !== '') {
      if (content === '') return { type: 'reasoning-delta', delta: thinking }
      this.#chars += content.length
      return [{ type: 'reasoning-delta', delta: thinking }, { type: 'text-delta', delta: content }]
    }
    if (content === '') return undefined
    this.#chars += content.length
    return { type: 'text-delta', delta: content }
  }

  /**
   * The call a tool-call delta continues. Deltas are keyed by `index`; some servers leave
   * it out (older Ollama, Gemini, SGLang): then a delta with a new id starts a call and one
   * without an id continues the latest.
   */
  #slot (d: { index?: number | null, id?: string | null }): PartialCall {
    if (typeof d.index === 'number') return this.#calls[d.index] ??= { id: '', name: '', args: '' }
    const latest = this.#calls.at(-1)
    if (latest !== undefined && (d.id === undefined || d.id === null || d.id === '' || d.id === latest.id)) return latest
    const call = { id: '', name: '', args: '' }
    this.#calls.push(call)
    return call
  }

  /** The closing parts: whole tool calls, then finish (reason, usage, model). */
  finish (): StreamPart[] {
    const calls = this.#calls.filter(c => c !== undefined && c.name !== '')
    const parts: StreamPart[] = calls.map((c, i) => ({ type: 'tool-call', call: { id: c.id === '' ? `call_${i}` : c.id, name: c.name, arguments: parseArguments(c.args) } }))
    parts.push({
      type: 'finish',
      finish_reason: finishReason(this.#finish, calls.length > 0),
      usage: usageOrEstimate(this.#reported, this.#req, calls.reduce((n, c) => n + c.args.length, this.#chars)),
      model: this.#model ?? this.#req.model,
    })
    return parts
  }
}

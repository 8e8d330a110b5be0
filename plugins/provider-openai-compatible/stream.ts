// Reads an OpenAI-style chunk stream into our StreamChunks: text and reasoning deltas are
// passed on as they come; tool-call deltas (split across many chunks, keyed by `index`)
// are assembled and handed over whole, with parsed arguments, on the final chunk, which
// also carries the finish reason and the usage (estimated and marked when not reported).
import type OpenAI from 'openai'
import type { CompletionRequest, StreamChunk } from '../../core/contracts/provider.ts'
import { finishReason, parseArguments, reasoningOf } from './convert.ts'
import { usageOrEstimate } from '../providers-api/kit/estimate.ts'

interface PartialCall { id: string, name: string, args: string }

export async function * readChunks (
  chunks: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>,
  req: CompletionRequest,
  onChunk: () => void,
  /** Runs when the upstream iterator ends; throws if it ended because of an abort or timeout (the SDK ends quietly then). */
  onEnd: () => void,
): AsyncGenerator<StreamChunk> {
  const calls: PartialCall[] = []
  let text = ''
  let reported: OpenAI.Completions.CompletionUsage | undefined
  let upstreamFinish: string | null | undefined
  let model: string | undefined
  for await (const chunk of chunks) {
    onChunk()
    if (chunk.usage !== undefined && chunk.usage !== null) reported = chunk.usage
    model ??= chunk.model
    const choice = chunk.choices?.[0]
    if (choice === undefined) continue
    const delta = choice.delta
    if (delta !== undefined && delta !== null) {
      const content = delta.content ?? ''
      const thinking = reasoningOf(delta)
      if (content !== '' || thinking !== undefined) {
        text += content
        yield thinking === undefined ? { content } : { content, thinking }
      }
      if (delta.tool_calls !== undefined) {
        for (const d of delta.tool_calls) {
          const call = calls[d.index] ??= { id: '', name: '', args: '' }
          if (d.id !== undefined && d.id !== '') call.id = d.id
          if (d.function?.name !== undefined) call.name += d.function.name
          if (d.function?.arguments !== undefined) call.args += d.function.arguments
        }
      }
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) upstreamFinish = choice.finish_reason
  }
  onEnd()
  const toolCalls = calls.filter(c => c !== undefined && c.name !== '').map((c, i) => ({
    id: c.id === '' ? `call_${i}` : c.id, name: c.name, arguments: parseArguments(c.args),
  }))
  const last: StreamChunk = {
    content: '',
    finish_reason: finishReason(upstreamFinish, toolCalls.length > 0),
    usage: usageOrEstimate(reported, req, text + calls.map(c => c.args).join('')),
    model: model ?? req.model,
  }
  if (toolCalls.length > 0) last.tool_calls = toolCalls
  yield last
}

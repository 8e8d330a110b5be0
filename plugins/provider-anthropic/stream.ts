// Reads Anthropic's SSE events into our StreamChunks: text_delta -> content,
// thinking_delta -> thinking (signature_delta kept for the last chunk), input_json_delta
// pieces assembled per content block into whole tool calls with parsed arguments, handed
// over on the last chunk with the finish reason and usage.
import type Anthropic from '@anthropic-ai/sdk'
import type { CompletionRequest, StreamChunk } from '../../core/contracts/provider.ts'
import { finishReason, usageOf } from './convert.ts'
import { usageOrEstimate } from '../providers-api/kit/estimate.ts'
import { parseArguments } from '../provider-openai-compatible/convert.ts'

interface PartialTool { id: string, name: string, json: string }

export async function * readEvents (
  events: AsyncIterable<Anthropic.Messages.RawMessageStreamEvent>,
  req: CompletionRequest,
  onEvent: () => void,
  onEnd: () => void,
): AsyncGenerator<StreamChunk> {
  const tools = new Map<number, PartialTool>()
  let text = ''
  let signature = ''
  let stop: string | null | undefined
  let inputTokens: number | undefined
  let cacheTokens = 0
  let outputTokens: number | undefined
  let model: string | undefined
  for await (const ev of events) {
    onEvent()
    switch (ev.type) {
      case 'message_start': {
        model = ev.message.model
        const u = ev.message.usage
        inputTokens = u?.input_tokens ?? undefined
        cacheTokens = (u?.cache_creation_input_tokens ?? 0) + (u?.cache_read_input_tokens ?? 0)
        break
      }
      case 'content_block_start':
        if (ev.content_block.type === 'tool_use') tools.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' })
        break
      case 'content_block_delta': {
        const d = ev.delta
        if (d.type === 'text_delta') { text += d.text; yield { content: d.text } }
        else if (d.type === 'thinking_delta') yield { content: '', thinking: d.thinking }
        else if (d.type === 'signature_delta') signature += d.signature
        else if (d.type === 'input_json_delta') { const t = tools.get(ev.index); if (t !== undefined) t.json += d.partial_json }
        break
      }
      case 'message_delta':
        stop = ev.delta.stop_reason ?? stop
        if (typeof ev.usage?.output_tokens === 'number') outputTokens = ev.usage.output_tokens
        break
      default:
        break
    }
  }
  onEnd()
  const toolCalls = [...tools.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => ({ id: t.id, name: t.name, arguments: parseArguments(t.json) }))
  const reported = inputTokens === undefined || outputTokens === undefined ? undefined : usageOf({ input_tokens: inputTokens + cacheTokens, output_tokens: outputTokens })
  const last: StreamChunk = {
    content: '',
    finish_reason: finishReason(stop, toolCalls.length > 0),
    usage: usageOrEstimate(reported, req, text + [...tools.values()].map(t => t.json).join('')),
    model: model ?? req.model,
  }
  if (toolCalls.length > 0) last.tool_calls = toolCalls
  if (signature !== '') last.thinking_signature = signature
  yield last
}

// Our contract types <-> the Anthropic Messages API. System messages become the `system`
// parameter; tool results become `tool_result` blocks in a user turn; an assistant's tool
// calls become `tool_use` blocks, its signed reasoning a `thinking` block and its encrypted
// reasoning `redacted_thinking` blocks, replayed verbatim; consecutive
// turns of the same role are merged, as the API wants them alternating.
import type Anthropic from '@anthropic-ai/sdk'
import type { CompletionRequest, FinishReason, Message } from '@agentd/sdk/contracts/provider'
import { thinkingParams, type ThinkingSettings } from './thinking.ts'

type MessageParam = Anthropic.Messages.MessageParam
type Block = Anthropic.Messages.ContentBlockParam
type CreateParams = Omit<Anthropic.Messages.MessageCreateParamsNonStreaming, 'stream'>

function blocksOf (m: Message, model: string): { role: 'user' | 'assistant', blocks: Block[] } {
  if (m.role === 'tool') {
    return { role: 'user', blocks: [{ type: 'tool_result', tool_use_id: m.tool_call_id ?? '', content: m.content }] }
  }
  if (m.role === 'assistant') {
    const blocks: Block[] = []
    // Signed reasoning goes back only to the model that produced it: newer models refuse
    // another model's thinking blocks, and earlier turns' reasoning may be left out.
    // Unsigned reasoning cannot be replayed (the API checks signatures); it is dropped too.
    if (m.thinking_model === undefined || m.thinking_model === model) {
      if (m.thinking !== undefined && m.thinking !== '' && m.thinking_signature !== undefined) {
        blocks.push({ type: 'thinking', thinking: m.thinking, signature: m.thinking_signature })
      }
      for (const data of m.thinking_redacted ?? []) blocks.push({ type: 'redacted_thinking', data })
    }
    if (m.content !== '') blocks.push({ type: 'text', text: m.content })
    for (const c of m.tool_calls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments })
    return { role: 'assistant', blocks }
  }
  const images = (m.images ?? []).map(imageBlock)
  return { role: 'user', blocks: [...images, ...(m.content === '' ? [] : [{ type: 'text' as const, text: m.content }])] }
}

const DATA_URL = /^data:(image\/(?:jpeg|png|gif|webp));base64,(.*)$/s

/** A data URL as a base64 source, any other URL as a URL source (Anthropic fetches it). */
function imageBlock (i: { url: string }): Block {
  const data = DATA_URL.exec(i.url)
  if (data !== null) return { type: 'image', source: { type: 'base64', media_type: data[1] as 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp', data: data[2] } }
  return { type: 'image', source: { type: 'url', url: i.url } }
}

export function toParams (req: CompletionRequest, maxTokens: number, thinking: ThinkingSettings): CreateParams {
  const system = req.messages.filter(m => m.role === 'system').map(m => m.content).filter(s => s !== '').join('\n\n')
  const messages: MessageParam[] = []
  for (const m of req.messages) {
    if (m.role === 'system') continue
    const { role, blocks } = blocksOf(m, req.model)
    if (blocks.length === 0) continue
    const prev = messages.at(-1)
    if (prev !== undefined && prev.role === role) (prev.content as Block[]).push(...blocks)
    else messages.push({ role, content: blocks })
  }
  const p: CreateParams = { model: req.model, messages, ...thinkingParams(req.model, maxTokens, thinking) }
  if (system !== '') p.system = system
  if (req.tools !== undefined && req.tools.length > 0) {
    p.tools = req.tools.map(t => ({ name: t.name, description: t.description, input_schema: { type: 'object', ...t.input_schema } as Anthropic.Messages.Tool.InputSchema }))
    // Anthropic's names: `any` (some tool), `tool` (this one).
    const choice = req.tool_choice
    if (choice !== undefined && choice !== 'auto') p.tool_choice = choice === 'required' ? { type: 'any' } : { type: 'tool', name: choice.name }
  }
  // temperature, top_p and the penalties are not Messages API parameters in the API
  // version this SDK speaks; they are left out rather than sent and refused.
  if (req.stop !== undefined && req.stop.length > 0) p.stop_sequences = req.stop
  return p
}

export function finishReason (r: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls || r === 'tool_use') return 'tool_calls'
  switch (r) {
    case 'max_tokens': case 'model_context_window_exceeded': return 'length'
    case 'refusal': return 'content_filter'
    default: return 'stop'
  }
}

/** Anthropic counts cached input apart; the prompt is all of it. */
export function usageOf (u: { input_tokens?: number | null, output_tokens?: number | null, cache_creation_input_tokens?: number | null, cache_read_input_tokens?: number | null } | undefined | null): { prompt_tokens: number, completion_tokens: number } | undefined {
  if (u === undefined || u === null || typeof u.input_tokens !== 'number' || typeof u.output_tokens !== 'number') return undefined
  return { prompt_tokens: u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0), completion_tokens: u.output_tokens }
}

// Our contract types <-> the OpenAI Chat Completions wire format.
import type OpenAI from 'openai'
import type { CompletionRequest, FinishReason, Message, ToolCall } from '@agentd/sdk/contracts/provider'
import { parseArguments } from '@agentd/sdk/kits/provider'

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam
type ChatParams = Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, 'stream'>

function toMessage (m: Message): ChatMessage {
  switch (m.role) {
    case 'system': return { role: 'system', content: m.content }
    case 'user':
      if (m.images === undefined || m.images.length === 0) return { role: 'user', content: m.content }
      return {
        role: 'user',
        content: [
          ...(m.content === '' ? [] : [{ type: 'text' as const, text: m.content }]),
          ...m.images.map(i => ({ type: 'image_url' as const, image_url: { url: i.url, ...(i.detail === undefined ? {} : { detail: i.detail }) } })),
        ],
      }
    case 'tool': return { role: 'tool', content: m.content, tool_call_id: m.tool_call_id ?? '' }
    case 'assistant': {
      const calls = m.tool_calls ?? []
      if (calls.length === 0) return { role: 'assistant', content: m.content }
      return {
        role: 'assistant',
        content: m.content === '' ? null : m.content,
        tool_calls: calls.map(c => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
      }
    }
  }
}

/** Differences between servers that speak the same protocol. */
export interface WireQuirks {
  /** OpenAI's own API wants `max_completion_tokens` (reasoning models refuse `max_tokens`); most others still read `max_tokens`. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens'
  /** Models that refuse sampling parameters (OpenAI's o-series and gpt-5): temperature, top_p and the penalties are left out. */
  fixedSampling?: RegExp
}

export const DEFAULT_QUIRKS: WireQuirks = { maxTokensField: 'max_tokens' }

/** Request body fields shared by plain and streamed calls. Unset options are left out, so the server's defaults apply. */
export function toParams (req: CompletionRequest, quirks: WireQuirks = DEFAULT_QUIRKS): ChatParams {
  const p: ChatParams = { model: req.model, messages: req.messages.map(toMessage) }
  if (req.tools !== undefined && req.tools.length > 0) {
    p.tools = req.tools.map(t => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.input_schema } }))
    const choice = req.tool_choice
    if (choice !== undefined && choice !== 'auto') p.tool_choice = choice === 'required' ? 'required' : { type: 'function', function: { name: choice.name } }
  }
  if (req.max_tokens !== undefined) {
    if (quirks.maxTokensField === 'max_completion_tokens') p.max_completion_tokens = req.max_tokens
    else p.max_tokens = req.max_tokens
  }
  if (quirks.fixedSampling === undefined || !quirks.fixedSampling.test(req.model)) {
    if (req.temperature !== undefined) p.temperature = req.temperature
    if (req.top_p !== undefined) p.top_p = req.top_p
    if (req.frequency_penalty !== undefined) p.frequency_penalty = req.frequency_penalty
    if (req.presence_penalty !== undefined) p.presence_penalty = req.presence_penalty
  }
  if (req.stop !== undefined && req.stop.length > 0) p.stop = req.stop
  if (req.response_format?.type === 'json_object') p.response_format = { type: 'json_object' }
  else if (req.response_format?.type === 'json_schema') {
    p.response_format = { type: 'json_schema', json_schema: { name: req.response_format.name, schema: req.response_format.schema } }
  }
  return p
}

export function finishReason (r: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls) return 'tool_calls'
  switch (r) {
    case 'length': return 'length'
    case 'tool_calls': case 'function_call': return 'tool_calls'
    case 'content_filter': return 'content_filter'
    default: return 'stop'
  }
}

export function toToolCalls (calls: Array<{ id: string, type: string, function?: { name: string, arguments: string } }> | undefined): ToolCall[] {
  return (calls ?? []).filter(c => c.function !== undefined).map(c => ({ id: c.id, name: c.function!.name, arguments: parseArguments(c.function!.arguments) }))
}

/** Native reasoning: `reasoning_content` (DeepSeek, vLLM, LM Studio) or `reasoning` (Ollama, OpenRouter). */
export function reasoningOf (o: unknown): string | undefined {
  const r = o as { reasoning_content?: unknown, reasoning?: unknown } | null | undefined
  const v = r?.reasoning_content ?? r?.reasoning
  return typeof v === 'string' && v !== '' ? v : undefined
}

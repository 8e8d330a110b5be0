// A model call's span, in the OpenTelemetry GenAI semantic conventions: named
// `chat <model>`, a client span, the request's model and settings, then the response's
// model, usage and finish reason. Prompt and completion text only when the telemetry
// plugin was told it may (`capture_content`): they hold what users wrote.
import { captureContent, SpanKind, type Attributes, type Span } from '@agentd/sdk'
import type { CompletionRequest, CompletionResult, FinishPart } from '@agentd/sdk/contracts/provider'

export { SpanKind }

export const FIRST_TOKEN_EVENT = 'gen_ai.first_token'

export function modelSpanName (request: CompletionRequest): string { return `chat ${request.model}` }

export function requestAttributes (provider: string, request: CompletionRequest, streaming: boolean): Attributes {
  const a: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': provider,
    'gen_ai.request.model': request.model,
    'agentd.stream': streaming,
  }
  if (request.temperature !== undefined) a['gen_ai.request.temperature'] = request.temperature
  if (request.max_tokens !== undefined) a['gen_ai.request.max_tokens'] = request.max_tokens
  if (request.top_p !== undefined) a['gen_ai.request.top_p'] = request.top_p
  if (request.tools !== undefined && request.tools.length > 0) a['agentd.request.tools'] = request.tools.map(t => t.name)
  if (captureContent()) a['gen_ai.input.messages'] = JSON.stringify(request.messages.map(m => ({ role: m.role, content: m.content })))
  return a
}

/** The response's side of the span: a completion's result or a stream's finish part. */
export function recordResponse (span: Span | undefined, r: Pick<CompletionResult, 'model' | 'usage' | 'finish_reason'> | FinishPart, content?: string): void {
  if (span === undefined) return
  span.setAttributes({
    'gen_ai.response.model': r.model ?? '',
    'gen_ai.usage.input_tokens': r.usage.prompt_tokens,
    'gen_ai.usage.output_tokens': r.usage.completion_tokens,
    'gen_ai.response.finish_reasons': [r.finish_reason],
  })
  if (r.usage.estimated === true) span.setAttribute('agentd.usage.estimated', true)
  if (content !== undefined && captureContent()) span.setAttribute('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', content }]))
}

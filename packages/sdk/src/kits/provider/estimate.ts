// Token estimates for when an upstream omits usage. About four characters per token is
// the usual rule for English with BPE tokenizers; the result is marked `estimated`.
import type { CompletionRequest, Usage } from '../../contracts/provider.ts'

/** Tokens in a text, or in a text of this many characters. */
export function estimateTokens (text: string | number): number {
  const chars = typeof text === 'number' ? text : text.length
  return chars === 0 ? 0 : Math.max(1, Math.ceil(chars / 4))
}

export function estimatePromptTokens (req: CompletionRequest): number {
  let chars = 0
  for (const m of req.messages) {
    chars += m.content.length + 4 // role and separators
    for (const c of m.tool_calls ?? []) chars += c.name.length + JSON.stringify(c.arguments).length
  }
  for (const t of req.tools ?? []) chars += t.name.length + t.description.length + JSON.stringify(t.input_schema).length
  return Math.ceil(chars / 4)
}

/**
 * Usage as reported, or estimated (and marked) when the upstream said nothing. The
 * completion is its text or, for a stream, its length in characters: a stream counts the
 * characters it relayed rather than keep every delta alive until it ends.
 */
export function usageOrEstimate (
  reported: { prompt_tokens?: number | null, completion_tokens?: number | null } | undefined | null,
  req: CompletionRequest,
  completion: string | number,
): Usage {
  if (reported !== undefined && reported !== null && typeof reported.prompt_tokens === 'number' && typeof reported.completion_tokens === 'number') {
    return { prompt_tokens: reported.prompt_tokens, completion_tokens: reported.completion_tokens, total_tokens: reported.prompt_tokens + reported.completion_tokens }
  }
  const prompt = estimatePromptTokens(req)
  const tokens = estimateTokens(completion)
  return { prompt_tokens: prompt, completion_tokens: tokens, total_tokens: prompt + tokens, estimated: true }
}

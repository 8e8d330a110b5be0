// Tool-call arguments, shared by every provider's conversion: they arrive as JSON text
// (OpenAI's `arguments`, Anthropic's streamed `input_json_delta` pieces).

/**
 * The arguments object. A model that writes broken JSON gets its text back under
 * `_raw_arguments`, so the tool's own validation can tell it what is wrong; a JSON value
 * that is not an object comes back as `{ value }`.
 */
export function parseArguments (text: string): Record<string, unknown> {
  if (text.trim() === '') return {}
  try {
    const v: unknown = JSON.parse(text)
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : { value: v }
  } catch {
    return { _raw_arguments: text }
  }
}

// `{key, value}` -> a nested patch. Model names have dots of their own (gpt-4.1,
// llama3.2), so under `models.overrides.` the model name runs to the last segment when
// that segment is a capability field, and to the end otherwise.
import { dottedToNested } from '../../core/config.ts'
import { Errors } from '@agentd/sdk'

const CAPABILITY_FIELDS = new Set(['supports_tools', 'supports_vision', 'supports_streaming', 'supports_json_mode', 'context_window', 'max_output_tokens', 'cost_per_1k_input', 'cost_per_1k_output'])
const OVERRIDES = 'models.overrides.'

export function patchFromDotted (key: string, value: unknown): Record<string, unknown> {
  if (!key.startsWith(OVERRIDES)) return dottedToNested(key, value)
  const rest = key.slice(OVERRIDES.length)
  const lastDot = rest.lastIndexOf('.')
  const field = lastDot < 0 ? undefined : rest.slice(lastDot + 1)
  const model = field !== undefined && CAPABILITY_FIELDS.has(field) ? rest.slice(0, lastDot) : rest
  if (model === '' || model === '__proto__' || model === 'constructor' || model === 'prototype') {
    throw new Errors.BAD_REQUEST(`"${key}" does not name a model after "models.overrides.".`)
  }
  const entry = model === rest ? value : { [field as string]: value }
  return { models: { overrides: { [model]: entry } } }
}

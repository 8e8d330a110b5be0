// `{key, value}` -> a nested patch. Model names have dots of their own (gpt-4.1,
// llama3.2), so under `models.overrides.` the model name runs to the last segment when
// that segment is a capability field, and to the end otherwise.
import { Errors } from '@agentd/sdk'

const CAPABILITY_FIELDS = new Set(['supports_tools', 'supports_vision', 'supports_streaming', 'supports_json_mode', 'context_window', 'max_output_tokens', 'cost_per_1k_input', 'cost_per_1k_output'])
const OVERRIDES = 'models.overrides.'

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Dotted keys of every leaf in a patch: {providers:{openai:{api_key}}} -> providers.openai.api_key. */
export function leafKeys (obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => isPlainObject(v) && Object.keys(v).length > 0 && !prefix.startsWith('models.overrides')
    ? leafKeys(v, `${prefix}${k}.`)
    : [`${prefix}${k}`])
}

/** `{key: "a.b.c", value}` -> `{a:{b:{c:value}}}`. */
export function dottedToNested (key: string, value: unknown): Record<string, unknown> {
  const parts = key.split('.')
  if (parts.some(p => p === '' || p === '__proto__' || p === 'constructor' || p === 'prototype')) {
    throw new Errors.BAD_REQUEST(`"${key}" is not a valid dotted key.`)
  }
  const root: Record<string, unknown> = {}
  let cur = root
  parts.forEach((p, i) => {
    if (i === parts.length - 1) cur[p] = value
    else { const next: Record<string, unknown> = {}; cur[p] = next; cur = next }
  })
  return root
}

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

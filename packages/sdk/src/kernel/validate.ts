// One way to check a value against a TypeBox schema and say what is wrong, by path.
import type { TSchema, Static } from '@agentd/sdk/typebox'
import { Value } from '@agentd/sdk/typebox/value'
import { Compile } from '@agentd/sdk/typebox/compile'
import type { ErrorDetail } from './errors.ts'
import { registerFormats } from './formats.ts'

registerFormats()

const compiled = new WeakMap<TSchema, ReturnType<typeof Compile>>()

function checker (schema: TSchema): ReturnType<typeof Compile> {
  let c = compiled.get(schema)
  if (c === undefined) { c = Compile(schema); compiled.set(schema, c) }
  return c
}

export function describeErrors (schema: TSchema, value: unknown, root = ''): ErrorDetail[] {
  const seen = new Set<string>()
  const out: ErrorDetail[] = []
  for (const e of checker(schema).Errors(value) as Array<{ instancePath: string, message: string, params?: Record<string, unknown> }>) {
    if (e.message === 'schema is false') continue
    let message = e.message
    const extra = e.params?.additionalProperties
    if (Array.isArray(extra)) message = `unknown key(s): ${extra.join(', ')}`
    const req = e.params?.requiredProperties
    if (Array.isArray(req)) message = `missing required field(s): ${req.join(', ')}`
    const path = `${root}${e.instancePath.replaceAll('/', '.')}` || '(root)'
    const key = `${path}|${message}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ path, message })
  }
  return out
}

export type Checked<T> = { ok: true, value: T } | { ok: false, errors: ErrorDetail[] }

/** Applies schema defaults to a copy, then checks. Never mutates the input. */
export function check<S extends TSchema> (schema: S, value: unknown, root = ''): Checked<Static<S>> {
  const withDefaults = Value.Default(schema, Value.Clone(value)) as unknown
  if (checker(schema).Check(withDefaults)) return { ok: true, value: withDefaults as Static<S> }
  return { ok: false, errors: describeErrors(schema, withDefaults, root) }
}

export function formatErrors (errors: ErrorDetail[]): string {
  return errors.map(e => `${e.path}: ${e.message}`).join('; ')
}

// Lenient request bodies (DECISIONS.md "What clients may send"): a newer client must not
// break an older server, so fields a route does not know are dropped before validation
// and named at debug level. The schema itself stays strict (`additionalProperties: false`),
// so whatever is left is checked as sent: a known field of the wrong type is still a 400.
// For chat, stream, agent-run and OpenAI-compatible requests; settings and config updates
// keep refusing unknown keys.
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify'

interface ObjectSchema { type?: unknown, properties?: Record<string, unknown>, additionalProperties?: unknown }

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function isClosedObject (s: unknown): s is ObjectSchema & { properties: Record<string, unknown> } {
  const o = s as ObjectSchema | undefined
  return o?.type === 'object' && isPlain(o.properties) && o.additionalProperties === false
}

/**
 * Removes, in place, every key of `value` that `schema` (a closed object schema, nested
 * closed objects included) does not declare; returns their dotted paths.
 */
export function dropUnknownFields (schema: unknown, value: unknown, prefix = ''): string[] {
  if (!isClosedObject(schema) || !isPlain(value)) return []
  const dropped: string[] = []
  for (const key of Object.keys(value)) {
    const sub = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined
    if (sub === undefined) {
      dropped.push(prefix + key)
      delete value[key] // eslint-disable-line @typescript-eslint/no-dynamic-delete -- a body the route does not know
    } else {
      dropped.push(...dropUnknownFields(sub, value[key], `${prefix}${key}.`))
    }
  }
  return dropped
}

/** A preValidation hook that drops the body fields `schema` does not declare and logs them at debug. */
export function ignoreUnknownFields (schema: unknown): preValidationAsyncHookHandler {
  return async function ignoreUnknown (request: FastifyRequest): Promise<void> {
    const dropped = dropUnknownFields(schema, request.body)
    if (dropped.length > 0) request.log.debug({ ignored: dropped, url: request.url }, 'ignored request fields this server does not know')
  }
}

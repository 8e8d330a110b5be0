// Plugin: runtime configuration over HTTP. GET /api/config shows what is in effect with
// every secret as { set: true|false }; POST /api/config/update takes the nested form or
// `{key, value}`, refuses unknown keys with the list of accepted ones, writes
// data/config.json atomically, and rebuilds the generation before answering, so the next
// request already uses the new key while a stream that is running finishes on the old one.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { Errors } from '@agentd/sdk'
import { leafKeys } from './dotted.ts'
import { patchFromDotted } from './dotted.ts'
import { redact } from './redact.ts'
import { effectiveConfig } from './effective.ts'
import { describeAllowed, resolveAliases, unknownKeys } from './allowed.ts'
import { isPlainObject } from './plain.ts'
import { clearKeysOnMove } from './key-binding.ts'

const UpdateResponse = Type.Object({
  status: Type.Literal('ok'),
  message: Type.String(),
  updated: Type.Array(Type.String()),
  cleared: Type.Optional(Type.Array(Type.String(), { description: 'Stored keys removed because their provider\'s base_url changed without a new key (a key goes only to the address it was set with).' })),
})

async function configApi (app: FastifyInstance): Promise<void> {
  app.get('/api/config', {
    schema: {
      tags: ['config'],
      summary: 'The runtime configuration in effect; every secret shown only as { set: true|false }',
      response: { 200: Type.Record(Type.String(), Type.Unknown()) },
    },
  }, async () => redact(effectiveConfig(app)) as Record<string, unknown>)

  app.post('/api/config/update', {
    schema: {
      tags: ['config'],
      summary: 'Change runtime settings (nested form, or {key, value} with a dotted key); persisted to data/config.json and applied without a restart',
      body: Type.Record(Type.String(), Type.Unknown(), {
        description: 'Nested: {"providers":{"openai":{"api_key":"sk-..."}}}. Dotted: {"key":"providers.openai.api_key","value":"sk-..."}.',
      }),
      response: { 200: UpdateResponse },
    },
  }, async (request) => {
    const body = request.body as Record<string, unknown>
    const keys = Object.keys(body)
    const dotted = keys.includes('key') && keys.every(k => k === 'key' || k === 'value')
    let patch: Record<string, unknown>
    if (dotted) {
      if (typeof body.key !== 'string' || body.key === '') throw new Errors.BAD_REQUEST('"key" must be a dotted setting name such as "providers.openai.api_key".')
      if (!('value' in body)) throw new Errors.BAD_REQUEST(`Missing "value" for key "${body.key}".`)
      patch = patchFromDotted(body.key, body.value)
    } else {
      patch = body
    }
    const providers = app.registry.providers.names()
    patch = resolveAliases(patch, providers) // providers.lmstudio -> providers.local
    const allowed = describeAllowed(providers)
    if (Object.keys(patch).length === 0) throw new Errors.BAD_REQUEST(`Nothing to update; accepted keys: ${allowed}.`)
    const bad = unknownKeys(patch, providers)
    if (bad.length > 0) {
      const e = new Errors.BAD_REQUEST(`Unknown configuration key(s): ${bad.join(', ')}. Accepted keys: ${allowed}.`)
      throw Object.assign(e, { details: bad.map(path => ({ path, message: 'unknown key' })) })
    }
    if (!isPlainObject(patch)) throw new Errors.BAD_REQUEST('The body must be a JSON object.')
    // A default strategy nobody registered would turn every later agent run into a 400.
    const strategy = (patch.preferences as Record<string, unknown> | undefined)?.default_reasoning_strategy
    const strategies = ['auto', ...app.registry.strategies.names()]
    if (typeof strategy === 'string' && !strategies.includes(strategy)) {
      const e = new Errors.BAD_REQUEST(`preferences.default_reasoning_strategy "${strategy}" is not a registered strategy; use one of: ${strategies.join(', ')}.`)
      throw Object.assign(e, { details: [{ path: 'preferences.default_reasoning_strategy', message: `one of: ${strategies.join(', ')}` }] })
    }
    const updated = leafKeys(patch)
    const moved = clearKeysOnMove(patch, app.agentConfig)
    await app.kernel.updateConfig(moved.patch) // 400 with details on a bad value; nothing written then
    // Rebuild now rather than waiting for the file watcher, so the caller's next request sees it.
    const outcome = await app.kernel.reload(`config update: ${updated.join(', ')}`)
    request.log.info({ updated, generation: outcome.generation, ok: outcome.ok }, 'runtime config updated')
    const clearedNote = moved.cleared.length === 0 ? '' : ` Cleared ${moved.cleared.join(', ')}: a key goes only to the base URL it was set with; send api_key together with base_url to keep one.`
    const message = (outcome.ok
      ? `Updated ${updated.length} setting(s) in data/config.json; applied in generation ${outcome.generation}.`
      : `Updated ${updated.length} setting(s) in data/config.json, but applying them failed (${outcome.error ?? 'unknown error'}); the previous settings keep serving until it is fixed.`) + clearedNote
    return { status: 'ok' as const, message, updated, ...(moved.cleared.length === 0 ? {} : { cleared: moved.cleared }) }
  })
}

/** data/config.json sections this plugin shows and updates. */
export { providerConfig as config } from '@agentd/sdk/kits/provider'

export default fp(configApi, { name: 'config-api', fastify: '5.x' })

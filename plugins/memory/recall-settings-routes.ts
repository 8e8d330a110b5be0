// GET/POST /api/memory/recall-settings (DECISIONS.md): every key with its value and
// default; a partial update, 400 for an unknown key or a wrong type (nothing is changed
// then), in force for the next recall and persisted to data/memory_settings.json.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { RECALL_DEFAULTS, RecallSettingsSchema } from '@agentd/sdk/kits/recall'
import type { RecallSettings } from '@agentd/sdk/contracts/recall'
import type { RecallSettingsStore } from './recall-settings.ts'

const Values = Type.Record(Type.String(), Type.Union([Type.Boolean(), Type.Number(), Type.String()]))
/**
 * Every key optional, none other allowed: the validator answers 400 naming the bad field.
 * Without the defaults: the validator would fill in every key left out, and a partial
 * update would reset the others.
 */
const Patch = Type.Object(Object.fromEntries(Object.entries(RecallSettingsSchema.properties).map(([k, schema]) => {
  const { default: _default, ...rest } = schema as unknown as Record<string, unknown>
  return [k, Type.Optional(rest as unknown as typeof schema)]
})), { additionalProperties: false, minProperties: 0 })

export async function recallSettingsRoutes (app: FastifyInstance, store: RecallSettingsStore): Promise<void> {
  const tags = ['memory']
  app.get('/api/memory/recall-settings', {
    schema: {
      tags, summary: 'Recall settings: every key with its value and default',
      response: { 200: Type.Object({ settings: Values, defaults: Values, descriptions: Type.Record(Type.String(), Type.String()) }) },
    },
  }, async () => ({
    settings: store.get(),
    defaults: { ...RECALL_DEFAULTS },
    descriptions: Object.fromEntries(Object.entries(RecallSettingsSchema.properties).map(([k, s]) => [k, (s as { description?: string }).description ?? ''])),
  }))

  app.post('/api/memory/recall-settings', {
    schema: {
      tags, summary: 'Change some recall settings (live, persisted)',
      body: Patch,
      response: { 200: Type.Object({ success: Type.Boolean(), updated: Type.Array(Type.String()), settings: Values }) },
    },
  }, async (request) => {
    const updated = await store.update(request.body as Partial<RecallSettings>)
    return { success: true, updated, settings: store.get() }
  })
}

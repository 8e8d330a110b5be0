// GET/POST /api/memory/recall-settings (DECISIONS.md): GET answers key -> value, with
// defaults and meanings under `_meta` (settings-api.ts); POST a partial update, 400 for an
// unknown key (listing the allowed ones, the code /api/memory/settings uses) or a wrong
// type (nothing is changed then), in force for the next recall and persisted to
// data/memory_settings.json. `_meta` posted back is ignored.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { TObject } from '@agentd/sdk/typebox'
import type { RecallSettingsStore } from './recall-settings.ts'
import { settingsApi } from './settings-api.ts'

/** The endpoints' checks for the union in force (the loaded techniques' settings and the fusion's). */
function recallApi (schema: TObject, memoryKeys: string[]): ReturnType<typeof settingsApi> {
  return settingsApi({
    schema,
    readOnly: [],
    aliases: {},
    hint: unknown => unknown.some(k => memoryKeys.includes(k)) ? ' Consolidation settings go to POST /api/memory/settings.' : '',
  })
}

/** `memoryKeys`: the keys /api/memory/settings serves (a 400 here points a caller to it). */
export async function recallSettingsRoutes (app: FastifyInstance, store: RecallSettingsStore, memoryKeys: () => string[]): Promise<void> {
  const tags = ['memory']
  // The union is known once every plugin has registered; the same schema gives the same checks.
  let made: { schema: TObject, api: ReturnType<typeof settingsApi> } | undefined
  const api = (): ReturnType<typeof settingsApi> => {
    const schema = store.schema()
    if (made?.schema !== schema) made = { schema, api: recallApi(schema, memoryKeys()) }
    return made.api
  }
  // The keys depend on the techniques loaded, known once every plugin has registered: the
  // answer's schema is filled in then (the OpenAPI document is made on its first request,
  // so it names every key of the loaded techniques).
  const answer = Type.Object({}, { additionalProperties: true })
  app.addHook('onReady', async () => { Object.assign(answer.properties, api().responseSchema({}).properties) })
  app.get('/api/memory/recall-settings', {
    schema: {
      tags, summary: 'Recall settings: key -> value; defaults and meanings under _meta',
      description: 'The fusion\'s keys and every loaded technique\'s own (docs/api.md, "recall-settings").',
      response: { 200: answer },
    },
  }, async () => api().view({ ...store.get() }, {}))

  app.post('/api/memory/recall-settings', {
    schema: {
      tags, summary: 'Change some recall settings (live, persisted)',
      description: 'Partial: only the keys sent change. `_meta` (from GET) is accepted and ignored.',
      // Checked by settings-api.ts, which names every allowed key in its 400.
      body: Type.Unknown(),
      response: { 200: Type.Object({ success: Type.Boolean(), updated: Type.Array(Type.String()), settings: Type.Record(Type.String(), Type.Union([Type.Boolean(), Type.Number(), Type.String()])) }) },
    },
  }, async (request) => {
    const updated = await store.update(api().patch(request.body))
    return { success: true, updated, settings: store.get() }
  })
}

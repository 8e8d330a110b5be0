// GET/POST /api/memory/recall-settings (DECISIONS.md): GET answers key -> value, with
// defaults and meanings under `_meta` (settings-api.ts); POST a partial update, 400 for an
// unknown key (listing the allowed ones, the code /api/memory/settings uses) or a wrong
// type (nothing is changed then), in force for the next recall and persisted to
// data/memory_settings.json. `_meta` posted back is ignored.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { RecallSettingsSchema } from '@agentd/sdk/kits/recall'
import type { RecallSettings } from '@agentd/sdk/contracts/recall'
import type { RecallSettingsStore } from './recall-settings.ts'
import { settingsApi } from './settings-api.ts'
import { SETTING_KEYS } from './consolidation/settings.ts'

export const RECALL_API = settingsApi({
  schema: RecallSettingsSchema,
  readOnly: [],
  aliases: {},
  hint: unknown => unknown.some(k => (SETTING_KEYS as string[]).includes(k)) ? ' Consolidation settings go to POST /api/memory/settings.' : '',
})

export async function recallSettingsRoutes (app: FastifyInstance, store: RecallSettingsStore): Promise<void> {
  const tags = ['memory']
  app.get('/api/memory/recall-settings', {
    schema: {
      tags, summary: 'Recall settings: key -> value; defaults and meanings under _meta',
      response: { 200: RECALL_API.responseSchema({}) },
    },
  }, async () => RECALL_API.view({ ...store.get() }, {}))

  app.post('/api/memory/recall-settings', {
    schema: {
      tags, summary: 'Change some recall settings (live, persisted)',
      description: 'Partial: only the keys sent change. `_meta` (from GET) is accepted and ignored.',
      // Checked by settings-api.ts, which names every allowed key in its 400.
      body: Type.Unknown(),
      response: { 200: Type.Object({ success: Type.Boolean(), updated: Type.Array(Type.String()), settings: Type.Record(Type.String(), Type.Union([Type.Boolean(), Type.Number(), Type.String()])) }) },
    },
  }, async (request) => {
    const updated = await store.update(RECALL_API.patch(request.body) as Partial<RecallSettings>)
    return { success: true, updated, settings: store.get() }
  })
}

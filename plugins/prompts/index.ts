// Plugin: prompt profiles. Reads data/system_prompts.yaml (seeded from the shipped
// default when missing), reloads it live when the file changes, serves /api/prompts/*
// and registers the prompt composer (see api.ts) that chat and the OpenAI-compatible API use.
import fp from 'fastify-plugin'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { PluginOptions } from '@agentd/sdk'
import { FileWatcher } from '@agentd/sdk'
import { options, type PromptsOptions } from './options.ts'
import { PromptStore } from './store.ts'
import { createPromptsApi } from './api.ts'
import { promptRoutes } from './routes.ts'

export { options }
export type { PromptsApi } from './api.ts'
export type { ComposeInput, ComposedPrompt } from '@agentd/sdk/contracts/prompts'

async function prompts (app: FastifyInstance, opts: PluginOptions<PromptsOptions>): Promise<void> {
  app.hooks.declare('prompt:compose')
  const file = path.resolve(app.agentConfig.settings.dataDir, opts.file)
  const store = await PromptStore.open(file, (message) => { app.log.error({ file }, `prompts file not reloaded: ${message}`) })
  const api = createPromptsApi(app, store)
  app.registry.promptComposers.add(opts.instance, { checkProfile: (id) => { api.profile(id) }, compose: api.compose })
  await promptRoutes(app, { store, api })

  // The watcher belongs to the serving generation only: started on activate, stopped before drain.
  let watcher: FileWatcher | undefined
  app.lifecycle.add({
    name: `${opts.instance}:watch`,
    activate: async () => {
      watcher = new FileWatcher(opts.reload_debounce_ms, () => {
        void store.reload().then(ok => { if (ok) app.log.info({ file }, 'prompts file reloaded') })
      })
      await watcher.set([file])
      // An edit between load and activation would otherwise be missed.
      await store.reload()
    },
    deactivate: async () => { await watcher?.close(); watcher = undefined },
  })
}

export default fp(prompts, { name: 'prompts', fastify: '5.x' })

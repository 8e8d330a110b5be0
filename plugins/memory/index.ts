// Plugin: the memory service. Registers the service the chat calls (registry.memoryServices),
// the memory endpoints, the `memory` health section, the support the job plugins use
// (registry.memoryJobSupport: consolidate, patterns, promote, cleanup, audit partitions...,
// each its own plugin), and the memory settings endpoint that serves the union of the
// sections those plugins declare (registry.memorySettings).
// Stores and embedders are other plugins, found in the registry when needed, so any
// backend can serve a role and a store that loads later (or reloads) is picked up.
import fp from 'fastify-plugin'
import type { TObject } from '@agentd/sdk/typebox'
import type { RecallTechnique } from '@agentd/sdk/contracts/recall'
import { recallSettingsSchema } from '@agentd/sdk/kits/recall'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import type { PluginOptions } from '@agentd/sdk'
import { MemoryServiceImpl } from './service.ts'
import { guardFor, memoryRoutes } from './routes.ts'
import { transferRoutes } from './transfer-routes.ts'
import { memoryHealth } from './health.ts'
import { recordToolCall } from './tool-calls.ts'
import { MemorySettingsStore } from './memory-settings.ts'
import { settingsRoutes } from './settings-routes.ts'
import { jobSupport } from './job-support.ts'
import { TIMED_OUT, within } from '@agentd/sdk'
import { recordEntityMerge } from './history.ts'
import path from 'node:path'
import { RecallSettingsStore } from './recall-settings.ts'
import { recallSettingsRoutes } from './recall-settings-routes.ts'
import { Outbox } from './outbox/outbox.ts'
import { GraphBackfill } from './graph-backfill.ts'

export const options = Type.Object({
  embedder: Type.Optional(Type.String({ minLength: 1, description: 'embedder instance; default: embed-<EMBEDDING_PROVIDER>, else embed-onnx, else embed-hash' })),
  token_budget: Type.Integer({ minimum: 50, maximum: 100_000, default: 1000, description: 'tokens of memory context injected into a prompt' }),
  top_k: Type.Integer({ minimum: 1, maximum: 50, default: 10 }),
  working_memory_turns: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'how many of a conversation\'s latest turns POST /api/memory/recall with a conversation_id leaves out (the chat history holds them)' }),
  working_memory_ttl_seconds: Type.Integer({ minimum: 1, maximum: 30 * 86_400, default: 86_400, description: 'ignored: memory keeps no key-value copy of a conversation any more (a chat hands recall its history); accepted so an older plugins.json still loads' }),
  recency_weight: Type.Number({ minimum: 0, maximum: 1, default: 0.2 }),
  recency_half_life_hours: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, default: 168 }),
  record_tool_invocations: Type.Boolean({ default: true, description: 'keep every tool call of a chat that uses memory (procedural memory)' }),
  auto_reembed: Type.Boolean({ default: true, description: 'at start, and when a model embedder finishes loading later, re-embed stored vectors another embedder made (background job) once the active embedder is ready' }),
  reembed_batch_size: Type.Integer({ minimum: 1, maximum: 10_000, default: 64 }),
  recall_technique_timeout_ms: Type.Integer({ minimum: 10, maximum: 120_000, default: 2000, description: 'how long a recall technique (hybrid, HyDE...) may take before the recall goes on without it and says so' }),
  graph_backfill: Type.Boolean({ default: true, description: 'when the graph store keeps copies (Neo4j) and lacks items written before it was configured, copy them in the background (progress: health memory.graph_backfill; job graph_backfill)' }),
  outbox: Type.Boolean({ default: true, description: 'keep the chat\'s memory writes in a durable outbox under AGENT_DATA_DIR/memory-outbox while their store is down, and store them in order once it is back' }),
  outbox_max_entries: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 100_000, description: 'writes the outbox keeps at most; past it a write is refused (and logged)' }),
  outbox_max_bytes: Type.Integer({ minimum: 1024, maximum: 10 * 1024 ** 3, default: 64 * 1024 ** 2 }),
  outbox_write_timeout_ms: Type.Integer({ minimum: 50, maximum: 600_000, default: 2000, description: 'a store that has not answered a write within this long gets it through the outbox' }),
  outbox_max_retry_ms: Type.Integer({ minimum: 100, maximum: 600_000, default: 5000, description: 'longest wait between two replay attempts while the store is down' }),
  import_max_bytes: Type.Integer({ minimum: 1024, maximum: 4 * 1024 ** 3, default: 256 * 1024 ** 2, description: 'largest body POST /api/memory/import takes (an export file or a ChatGPT conversations.json)' }),
  embedder_check_timeout_ms: Type.Integer({ minimum: 100, maximum: 600_000, default: 3000, description: 'how long the start-up comparison of stored vectors with the active embedder may take before it is logged and left to run on' }),
})
type Options = Static<typeof options>

async function memory (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  // memory:entity-merged is run by a graph store that merges entities (memory-graph-sql's
  // entity_linking); declared here too, since the subscription below is this plugin's
  // whichever graph store is loaded.
  app.hooks.declare('memory:stored', 'recall:after', 'memory:entity-merged')
  // Read once per generation; POST /api/memory/recall-settings changes them in place (live).
  const recallSettings = new RecallSettingsStore(path.join(app.agentConfig.settings.dataDir, 'memory_settings.json'), loadedRecallSettings(app))
  await recallSettings.load(app.log)
  const svc = new MemoryServiceImpl(() => app.registry, () => app.hooks, app.log, {
    embedder: opts.embedder,
    embeddingProvider: app.agentConfig.env.EMBEDDING_PROVIDER,
    tokenBudget: opts.token_budget,
    topK: opts.top_k,
    workingMemoryTurns: opts.working_memory_turns,
    recencyWeight: opts.recency_weight,
    recencyHalfLifeHours: opts.recency_half_life_hours,
    reembedBatchSize: opts.reembed_batch_size,
    recallSettings: () => recallSettings.get(),
    techniqueTimeoutMs: opts.recall_technique_timeout_ms,
  })
  if (opts.outbox) await attachOutboxes(app, svc, opts)
  app.registry.memoryServices.add(opts.instance, svc)
  // Items written before a graph store that keeps copies (Neo4j) was configured: copied in the background.
  const backfill = new GraphBackfill({ relational: () => svc.ctx.relational, graph: () => svc.ctx.graph, batchSize: 500, log: app.log })
  app.registry.healthContributors.add(`${opts.instance}:memory`, memoryHealth(svc, backfill))
  await memoryRoutes(app, svc)
  await transferRoutes(app, svc, guardFor(svc.ctx.outage), opts.import_max_bytes)
  const settings = new MemorySettingsStore(path.join(app.agentConfig.settings.dataDir, 'memory_settings.json'), () => app.registry.memorySettings.values())
  await settings.load(app.log)
  await recallSettingsRoutes(app, recallSettings, () => settings.union().api.keys)
  if (!app.registry.memoryJobSupport.has(opts.instance)) app.registry.memoryJobSupport.add(opts.instance, jobSupport(svc, settings))
  const stop = new AbortController()
  app.addHook('onClose', async () => { stop.abort(new Error('the server is shutting down')) })
  await settingsRoutes(app, {
    settings,
    // A second memory instance shares the jobs (one registry entry per name).
    jobs: () => app.registry.jobs.values().filter(j => j.group === 'memory'),
    needStores: () => { svc.ctx.need('relational'); svc.ctx.need('graph') },
    signal: () => stop.signal,
    log: (msg, data) => { app.log.info(data ?? {}, `memory: ${msg}`) },
  })

  checkEmbedderWhenReady(app, svc, opts)

  // A graph store's merge of two entities goes into the history of every item it changed
  // (once: a second memory instance writes to the same audit log, so it leaves it to the first).
  if (app.registry.memoryServices.first() === svc) app.hooks.on('memory:entity-merged', async m => { await recordEntityMerge(async e => { await svc.items.recordChange(e) }, m) })

  if (opts.record_tool_invocations) {
    // Procedural memory: tool calls of chats that use memory, recorded off the tool's path
    // (never awaited, never failing it).
    app.hooks.on('tool:after', payload => { recordToolCall(svc, app.log, payload) })
  }

  if (!app.registry.jobs.has('graph_backfill')) {
    app.registry.jobs.add('graph_backfill', {
      name: 'graph_backfill',
      description: 'Copies turns, goals and strategies written before the graph store (Neo4j) was configured into it; resumes where it stopped. Started by itself when needed.',
      schedule: null,
      run: async ({ signal }) => { const p = await backfill.run(signal); return { ...p } },
    })
  }
  app.lifecycle.add({
    name: `${opts.instance}:outbox-and-reembed`,
    // Only the serving generation replays the outbox.
    activate: () => {
      svc.ctx.outbox?.attach(svc.applyQueued, app.log); svc.copies.outbox?.attach(svc.copies.applyQueued, app.log)
      // Never awaited: start-up and chats do not wait on it; a graph store that is down is tried at the next start or run.
      if (opts.graph_backfill) {
        void backfill.needed().then(async needed => { if (needed) await backfill.run() })
          .catch((err: unknown) => { app.log.warn({ err: (err as Error).message }, 'memory: could not check whether the graph store needs a back-fill; POST /api/jobs/graph_backfill/run once it is up') })
      }
    },
    deactivate: async () => { svc.ctx.outbox?.detach(svc.applyQueued); svc.copies.outbox?.detach(svc.copies.applyQueued); await svc.drift.reembedder.stop(); await backfill.stop() },
  })
}

/**
 * The recall settings the loaded techniques declare (and the fusion's), as one schema: made
 * again only when the registered techniques change (the registry is fixed once the
 * generation is ready), so a recall compares one array.
 */
function loadedRecallSettings (app: FastifyInstance): () => TObject {
  let last: { techniques: RecallTechnique[], schema: TObject } | undefined
  return () => {
    const techniques = app.registry.recallTechniques.values()
    if (last === undefined || last.techniques.length !== techniques.length || last.techniques.some((t, i) => t !== techniques[i])) {
      last = { techniques, schema: recallSettingsSchema(techniques) }
    }
    return last.schema
  }
}

/**
 * The durable outboxes: the chat's memory writes wait there while their store is down and
 * are stored in order once it is back; copies for a graph store that keeps them (Neo4j) in
 * one of their own.
 */
async function attachOutboxes (app: FastifyInstance, svc: MemoryServiceImpl, opts: PluginOptions<Options>): Promise<void> {
  const dir = path.join(app.agentConfig.settings.dataDir, 'memory-outbox')
  const limits = { maxEntries: opts.outbox_max_entries, maxBytes: opts.outbox_max_bytes, writeTimeoutMs: opts.outbox_write_timeout_ms, maxRetryMs: opts.outbox_max_retry_ms, maxAttempts: 5 }
  // One per data folder, kept across reloads: two writers on one file would interleave.
  const outbox = await app.resources.acquire({ kind: 'memory-outbox', options: { dir }, create: () => new Outbox({ dir, ...limits }, app.log), dispose: async o => { await o.close() } })
  outbox.configure(limits)
  svc.ctx.outbox = outbox
  // Copies for a graph store that keeps them (Neo4j) wait apart: its outage never holds up the chat's writes.
  // A turn's copy is made within the turn's write, so it gets half its time: a graph store
  // that does not answer queues the copy before the turn's own write would time out.
  const copyDir = path.join(app.agentConfig.settings.dataDir, 'memory-outbox-graph')
  const copyLimits = { ...limits, writeTimeoutMs: Math.max(25, Math.floor(limits.writeTimeoutMs / 2)) }
  const copies = await app.resources.acquire({ kind: 'memory-outbox', options: { dir: copyDir }, create: () => new Outbox({ dir: copyDir, ...copyLimits }, app.log), dispose: async o => { await o.close() } })
  copies.configure(copyLimits)
  svc.copies.outbox = copies
}

/** Every plugin has registered by then: checks that stored vectors match the active embedder, re-embedding in the background when they do not. */
function checkEmbedderWhenReady (app: FastifyInstance, svc: MemoryServiceImpl, opts: PluginOptions<Options>): void {
  const checkEmbedder = async (late: boolean): Promise<void> => {
    const warning = await svc.drift.check()
    if (warning === undefined) return
    // After a late load the other vectors are embed-hash's stand-ins, expected and about to be replaced: not a warning.
    if (late && opts.auto_reembed) app.log.info(`memory: ${svc.embedding.embedder()?.id ?? 'the model'} has loaded; re-embedding what embed-hash stored while it loaded`)
    else app.log.warn(`memory: ${warning}`)
    const e = svc.embedding.embedder()
    if (opts.auto_reembed && e !== undefined) svc.drift.reembedder.start(e)
  }
  const checked = async (late: boolean): Promise<void> => {
    await checkEmbedder(late).catch((err: unknown) => {
      app.log.warn({ err: (err as Error).message }, 'memory: could not compare stored vectors with the active embedder (store down?); POST /api/memory/reembed once it is back')
    })
  }
  // A model embedder that loaded after start: what embed-hash stored while it loaded is re-embedded too.
  svc.embedding.onModelReady = () => { void checked(true) }
  app.addHook('onReady', async () => {
    const check = checked(false)
    // Start-up does not wait on a slow store; the check goes on in the background.
    if (await within(check, opts.embedder_check_timeout_ms, { unref: true }) === TIMED_OUT) app.log.warn({ timeout_ms: opts.embedder_check_timeout_ms }, 'memory: comparing stored vectors with the active embedder is taking long; start-up goes on and the result is logged when it comes')
  })
}

export default fp(memory, { name: 'memory', fastify: '5.x' })

// The memory plugin's support for the job plugins (registry.memoryJobSupport): the stores
// this service uses (a missing one is a 503 naming the plugin to enable), its embedder, the
// items' history, copies for a graph store that keeps them, and the memory settings in force.
import type { MemoryJobSupport } from '@agentd/sdk/contracts/memory-jobs'
import type { MemoryServiceImpl } from './service.ts'
import type { MemorySettingsStore } from './memory-settings.ts'

export function jobSupport (svc: MemoryServiceImpl, settings: MemorySettingsStore): MemoryJobSupport {
  return {
    relational: () => svc.ctx.need('relational'),
    graph: () => svc.ctx.need('graph'),
    kv: () => svc.ctx.kv,
    embed: async (text, signal) => await svc.embedding.embed(text, signal),
    recordChange: async (e) => { await svc.items.recordChange(e) },
    copyStrategy: async (s, embedding) => { await svc.copies.strategy(s, embedding) },
    settings: () => settings.values(),
  }
}

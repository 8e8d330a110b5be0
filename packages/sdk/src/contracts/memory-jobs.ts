// What a memory job plugin (consolidate, patterns, promote, entity linking, decay, cleanup,
// audit partitions: one plugin each) meets: the memory plugin's support for jobs (the
// stores it uses, embedding, item history, graph copies, the memory settings in force), and
// the settings section a job declares so /api/memory/settings serves its keys while, and
// only while, it is loaded. The recall techniques' settings work the same way.
import type { TObject, TSchema } from '@agentd/sdk/typebox'
import type { EmbeddingRef, GraphStore, KvStore, LearnedStrategy, RelationalStore } from './memory-stores.ts'

/** Who changed an item, as its history (the audit log) shows it. */
export type ChangeActor = 'user' | 'consolidation' | 'promotion' | 'merge' | 'system'

/** One change of an item made beside the write API (consolidation, promotion, a merge). */
export interface ItemChange {
  kind: 'fact' | 'entity' | 'goal' | 'strategy'
  action: string
  id: string
  channel: string
  actor: ChangeActor
  details?: Record<string, unknown>
}

/**
 * The memory plugin's support for jobs, registered under registry.memoryJobSupport. Stores
 * are looked up per call (a reloaded store is picked up); a missing one throws a 503 that
 * names the plugin to enable.
 */
export interface MemoryJobSupport {
  relational: () => RelationalStore
  graph: () => GraphStore
  /** The key-value store, when one is loaded (cleanup sweeps it). */
  kv: () => KvStore | undefined
  /** Embeds a text with the active embedder; undefined when none works. */
  embed: (text: string, signal?: AbortSignal) => Promise<EmbeddingRef | undefined>
  /** Writes a change to the item's history. */
  recordChange: (e: ItemChange) => Promise<void>
  /** Copies a strategy into a graph store that keeps copies (Neo4j); never rejects. */
  copyStrategy: (s: LearnedStrategy, embedding?: EmbeddingRef) => Promise<void>
  /**
   * The memory settings in force (GET /api/memory/settings): key -> value over every
   * loaded section. Read per run (they change live); a job reads its own keys with the
   * memory kit's `sectionValues(itsSchema, support.settings())`.
   */
  settings: () => Readonly<Record<string, unknown>>
}

/**
 * A job's part of /api/memory/settings, registered under registry.memorySettings by the
 * plugin whose job reads it: its keys (the names the API promises), defaults, meanings and
 * validation. Disabling the plugin removes the keys from GET and refuses them on POST.
 */
export interface MemorySettingsSection {
  /** The writable keys, with defaults and descriptions. */
  readonly schema: TObject
  /** Values GET shows that no POST changes (accepted and ignored on POST), with their schemas. */
  readonly readOnly?: Readonly<Record<string, { schema: TSchema, value: unknown }>>
  /** Deprecated name -> current name, accepted on POST and in the settings file for one release. */
  readonly aliases?: Readonly<Record<string, string>>
}

declare module '../kernel/registry.ts' {
  interface Capabilities { memoryJobSupport: MemoryJobSupport, memorySettings: MemorySettingsSection }
}

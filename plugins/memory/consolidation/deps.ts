// What the consolidation jobs need from the memory plugin: the stores (looked up per run,
// so a reloaded store is picked up), embedding, the claim hash, the live settings and the
// two extractors. The plugin builds one of these; tests can build their own.
import type { EmbeddingRef, GraphStore, LearnedStrategy, RelationalStore } from '@agentd/sdk/contracts/memory-stores'
import type { ExtractionTurn, Extractor } from './extraction.ts'
import type { MemorySettings } from './settings.ts'

export interface ConsolidationDeps {
  relational: () => RelationalStore
  graph: () => GraphStore
  embed: (text: string, signal?: AbortSignal) => Promise<EmbeddingRef | undefined>
  claimHash: (claim: string) => string
  settings: () => Readonly<MemorySettings>
  extractors: { llm: Extractor, offline: Extractor }
  /** Writes a change to the item's history as made by consolidation. */
  history?: (e: { kind: 'fact' | 'entity', action: string, id: string, channel: string, details?: Record<string, unknown>, actor?: 'consolidation' | 'promotion' | 'merge' }) => Promise<void>
  /** Copies a strategy the patterns job created or counted into a graph store that keeps copies (never rejects). */
  copyStrategy?: (s: LearnedStrategy, embedding?: EmbeddingRef) => Promise<void>
  /** The model the LLM extractor would ask now (for metrics). */
  modelId?: () => string
  /**
   * Whether a conversation's user turns are worth remembering, asked of the relevance model
   * (memory settings relevance_filter_*); undefined when no such model is set or the filter is off.
   */
  relevance?: (turns: ExtractionTurn[], signal?: AbortSignal) => Promise<boolean | undefined>
}

export const GLOBAL_CHANNEL = '_global'

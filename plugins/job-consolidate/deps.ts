// What the consolidate job needs: the stores (looked up per run, so a reloaded store is
// picked up), embedding, the claim hash, its settings in force and the two extractors.
// The plugin builds one of these over the memory plugin's job support; tests can build their own.
import type { TraceContext } from '@agentd/sdk'
import type { EmbeddingRef, GraphStore, RelationalStore } from '@agentd/sdk/contracts/memory-stores'
import type { ItemChange } from '@agentd/sdk/contracts/memory-jobs'
import type { ExtractionTurn, Extractor } from './extraction.ts'
import type { ConsolidateSettingsValues } from './settings.ts'

export interface ConsolidationDeps {
  relational: () => RelationalStore
  graph: () => GraphStore
  embed: (text: string, signal?: AbortSignal) => Promise<EmbeddingRef | undefined>
  claimHash: (claim: string) => string
  settings: () => Readonly<ConsolidateSettingsValues>
  extractors: { llm: Extractor, offline: Extractor }
  /** Writes a change to the item's history as made by consolidation. */
  history?: (e: Omit<ItemChange, 'actor' | 'kind'> & { kind: 'fact' | 'entity', actor?: ItemChange['actor'] }) => Promise<void>
  /** The model the LLM extractor would ask now (for metrics). */
  modelId?: () => string
  /**
   * Whether a conversation's user turns are worth remembering, asked of the relevance model
   * (memory settings relevance_filter_*); undefined when no such model is set or the filter is off.
   */
  relevance?: (turns: ExtractionTurn[], signal?: AbortSignal, trace?: TraceContext) => Promise<boolean | undefined>
}

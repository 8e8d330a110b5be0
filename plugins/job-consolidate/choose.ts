// The extraction setting: `offline` never asks a model; `llm` asks the model for every
// conversation and falls back to the offline extractor for a conversation whose answer
// was unusable; `auto` asks the model while it answers well and, once it fails, uses the
// offline extractor for the rest of the run instead of waiting on a dead model again.
// Either way the result says which extractor ran and why the fallback happened.
import type { TraceContext } from '@agentd/sdk'
import type { Extraction, ExtractionTurn, Extractor } from './extraction.ts'
import { ExtractionFailed } from './llm-extractor.ts'

export type ExtractionMode = 'auto' | 'llm' | 'offline'

export interface ExtractionOutcome { extraction: Extraction, extractor: 'llm' | 'offline', fallback_reason?: string }

/** One consolidation run's state: whether `auto` has given up on the model. */
export class ExtractionRun {
  #llmDown: string | undefined

  constructor (private readonly mode: ExtractionMode, private readonly llm: Extractor, private readonly offline: Extractor) {}

  async extract (turns: ExtractionTurn[], signal?: AbortSignal, trace?: TraceContext): Promise<ExtractionOutcome> {
    if (this.mode === 'offline') return { extraction: await this.offline.extract(turns, signal), extractor: 'offline' }
    if (this.mode === 'auto' && this.#llmDown !== undefined) {
      return { extraction: await this.offline.extract(turns, signal), extractor: 'offline', fallback_reason: this.#llmDown }
    }
    try {
      return { extraction: await this.llm.extract(turns, signal, trace), extractor: 'llm' }
    } catch (err) {
      if (!(err instanceof ExtractionFailed)) throw err
      if (this.mode === 'auto') this.#llmDown = err.reason
      return { extraction: await this.offline.extract(turns, signal), extractor: 'offline', fallback_reason: err.reason }
    }
  }
}

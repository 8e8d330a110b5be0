// The NLLB-200 translator: the model (held lazily in the resource pool) gets the text in
// pieces that fit its window, split at sentence boundaries.
import type { Translator } from '@agentd/sdk/contracts/language'
import { type HubSource, loadHubPipeline, type PipelineFn, type LazyModel, type LoadProgress } from '@agentd/sdk/kits/models'
import { splitText } from './chunk.ts'
import { joinerFor } from './languages.ts'
import { awaitModel } from './wait.ts'

/** What a loaded sequence-to-sequence translation model offers. */
export interface Seq2SeqModel {
  /** Translates one piece that fits the window. Codes are NLLB-200 codes. */
  translate: (text: string, source: string, target: string) => Promise<string>
  /** Length of a text in model tokens. */
  countTokens: (text: string) => number
  dispose?: () => Promise<void> | void
}

export interface NllbOptions { maxChunkTokens: number, loadWaitMs: number }

export function createNllbTranslator (id: string, holder: LazyModel<Seq2SeqModel>, o: NllbOptions): Translator {
  return {
    id,
    status: () => holder.status(),
    translate: async (req, signal) => {
      const model = await awaitModel(holder, o.loadWaitMs)
      const split = splitText(req.text, o.maxChunkTokens, { measure: s => model.countTokens(s), joiner: joinerFor(req.target) })
      const out: string[] = []
      for (const piece of split.pieces) {
        signal?.throwIfAborted()
        out.push(await model.translate(piece, req.source, req.target))
      }
      return split.join(out)
    },
  }
}

interface TranslationOutput { translation_text?: string }

/** A transformers.js `translation` pipeline as a Seq2SeqModel. */
export function nllbModel (pipe: PipelineFn, maxChunkTokens: number): Seq2SeqModel {
  return {
    translate: async (text, source, target) => {
      const out = await pipe(text, { src_lang: source, tgt_lang: target, max_new_tokens: Math.min(1000, maxChunkTokens * 3) }) as TranslationOutput[]
      return out[0]?.translation_text ?? ''
    },
    // Without a tokenizer (never with NLLB), ~3 characters a token is a safe overestimate.
    countTokens: (text) => pipe.tokenizer?.encode?.(text).length ?? Math.ceil(text.length / 3),
    dispose: async () => { await pipe.dispose?.() },
  }
}

/** The real loader: transformers.js `translation` pipeline from the hub or a local folder. */
export async function loadNllb (src: HubSource, onProgress: (p: LoadProgress) => void, maxChunkTokens: number): Promise<Seq2SeqModel> {
  return nllbModel(await loadHubPipeline('translation', src, onProgress), maxChunkTokens)
}

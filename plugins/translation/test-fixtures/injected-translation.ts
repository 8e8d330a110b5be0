// The translation plugin with the NLLB loader replaced, for tests: no weights reach a test
// machine. The fake model marks its output with the target code and records every call;
// tests steer loads (hold, fail, progress) through `control()`.
import { createTranslationPlugin } from '../index.ts'
import type { Seq2SeqModel } from '../nllb-backend.ts'
import type { HubSource } from '@agentd/sdk/kits/models'

export { options } from '../options.ts'

export interface TranslationControl {
  loads: number
  sources: HubSource[]
  /** Every piece the model was asked to translate. */
  calls: Array<{ text: string, source: string, target: string }>
  /** Set: the next loads fail with this message. */
  failWith?: string
  /** Set: loads wait for this promise (to hold a load open). */
  gate?: Promise<void>
  reset: () => void
}

const g = globalThis as unknown as { __translationControl?: TranslationControl }
export const control = (): TranslationControl => (g.__translationControl ??= {
  loads: 0,
  sources: [],
  calls: [],
  reset () { this.loads = 0; this.sources = []; this.calls = []; this.failWith = undefined; this.gate = undefined },
})

/** Tokens as the fake counts them: words. */
export const countWords = (s: string): number => s.split(/\s+/u).filter(w => w !== '').length

const fakeModel: Seq2SeqModel = {
  translate: async (text, source, target) => {
    control().calls.push({ text, source, target })
    return `<${target}>${text}</${target}>`
  },
  countTokens: countWords,
}

export default createTranslationPlugin((src) => async (onProgress) => {
  const c = control()
  c.loads++
  c.sources.push(src)
  onProgress({ percent: 25 })
  if (c.gate !== undefined) await c.gate
  onProgress({ percent: 75 })
  if (c.failWith !== undefined) throw new Error(c.failWith)
  return fakeModel
})

// language-detect with the classifier loader replaced, for tests: no weights reach a
// test machine. The real cld3 loader stays. Tests steer it through `control()`.
import { createLanguageDetectPlugin } from '../index.ts'
import { classifierBackend } from '../classifier-backend.ts'
import { loadCld3 } from '../cld3-backend.ts'
import type { HubSource, PipelineFn } from '@agentd/sdk/kits/models'

export { options } from '../options.ts'

export interface DetectControl {
  loads: number
  sources: HubSource[]
  /** The next load fails with this message, when set. */
  failWith?: string
  /** The label the fake classifier answers. */
  label: string
  /** Set: loads wait for this promise after reporting 50% (to hold a load open). */
  gate?: Promise<void>
}

const g = globalThis as unknown as { __detectControl?: DetectControl }
export const control = (): DetectControl => (g.__detectControl ??= { loads: 0, sources: [], label: 'fr' })

const fakeClassifier = (async (input: string | string[]) => {
  void input
  return [{ label: control().label, score: 0.97 }]
}) as PipelineFn

export default createLanguageDetectPlugin({
  cld3: () => async () => await loadCld3(),
  classifier: (src) => async (onProgress) => {
    const c = control()
    c.loads++
    c.sources.push(src)
    onProgress({ percent: 50 })
    if (c.gate !== undefined) await c.gate
    if (c.failWith !== undefined) throw new Error(c.failWith)
    return classifierBackend(fakeClassifier)
  },
})

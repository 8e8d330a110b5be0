// language-detect whose cld3 worker threads crash on cue (crashing-cld3-worker.mjs), to
// test through HTTP what a crashed worker means for a request.
import { createLanguageDetectPlugin } from '../index.ts'
import { loadCld3 } from '../cld3-backend.ts'
import { loadCld3Pool } from '../cld3-pool.ts'

export { options } from '../options.ts'

export const CRASHING_WORKER_URL = new URL('./crashing-cld3-worker.mjs', import.meta.url)

export default createLanguageDetectPlugin({
  cld3: (workers, log) => async () => workers > 0 ? await loadCld3Pool(workers, { log, workerUrl: CRASHING_WORKER_URL }) : await loadCld3(),
  classifier: () => async () => { throw new Error('this fixture has no classifier: use backend "cld3"') },
})

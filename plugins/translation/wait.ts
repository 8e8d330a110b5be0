// Waiting for a model: a request waits for a load in progress at most `waitMs`, then gets
// a 503 that says how far the load is; the load itself goes on for the next request.
import type { LazyModel } from '../language-detect/lazy-model.ts'
import { ModelUnavailableError } from '../language-detect/lazy-model.ts'
import { TranslateErrors } from './errors.ts'

export async function awaitModel<T> (holder: LazyModel<T>, waitMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const loading = holder.get()
  try {
    return await Promise.race([
      loading,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          const s = holder.status()
          const err = new TranslateErrors.LOADING(`The translation model ${holder.model} is still loading (${s.progress ?? 0}%); retry in a minute. GET /api/health shows the progress.`)
          reject(Object.assign(err, { retryAfter: 30 }))
        }, waitMs)
      }),
    ])
  } catch (err) {
    if (err instanceof ModelUnavailableError) throw new TranslateErrors.UNAVAILABLE(err.message)
    throw err
  } finally {
    clearTimeout(timer)
    loading.catch(() => undefined)
  }
}
